import i18n from 'i18next';
import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';

import { api } from '../api/client';
import { useAuth } from '../auth/auth-context';
import { useToast } from '../components/ui/toast-context';
import { TickQueue, type PendingTick } from '../lib/pendingTicks';
import { useRevalidate } from './revalidate';
import type { Ticks } from './tick-context';
import { useShowList, type GroceryList } from './useGroceryLists';

const NONE: readonly PendingTick[] = [];
const noop = () => () => {};

/** Waits before trying again while the server cannot be reached. */
const RETRY_MS = [2_000, 5_000, 10_000, 30_000];

/** Statuses that mean the server (or the tunnel before it) did not take the tick yet. */
const NOT_REACHED = new Set([408, 429, 502, 503, 504]);

/** A tick's request is given up after this (a tunnel that hangs), and tried again later. */
const SEND_TIMEOUT_MS = 10_000;

/**
 * Sends grocery ticks to the server one at a time, in the order they were made. A tick shows at
 * once; if the server cannot be reached (offline in a shop, the home server restarting) it
 * waits in the user's queue, shown as pending, and is sent when the connection returns (the
 * browser's `online`, a return to the tab, or a timer). The server keeps the later tick of an
 * item; when that was someone else's the parent gets a note. A tick the server refuses is
 * rolled back with a toast. Used once, by `TickSync`, which hands the result to the screens
 * (`useTicks`).
 */
export function useGroceryTicks(): Ticks {
  const { state } = useAuth();
  const userId = state.status === 'signedIn' ? state.user.id : null;
  const queue = useMemo(() => (userId ? new TickQueue(userId) : null), [userId]);
  const ticks = useSyncExternalStore(
    queue?.subscribe ?? noop,
    () => queue?.snapshot ?? NONE,
    () => NONE,
  );
  // Which queue is waiting for the server (a previous user's waiting says nothing of this one).
  const [waiting, setWaiting] = useState<TickQueue | null>(null);
  const stalled = waiting !== null && waiting === queue;
  const { toast } = useToast();
  const show = useShowList();
  const revalidate = useRevalidate();
  const sending = useRef(false);
  const failures = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  // The queue this hook works for now: a loop still running for a previous user's queue
  // stops at its next step, so no tick is ever sent with another user's session.
  const current = useRef(queue);

  const flush = useCallback(async () => {
    if (!queue || sending.current) return;
    sending.current = true;
    clearTimeout(timer.current);
    try {
      for (let next = queue.snapshot[0]; next; next = queue.snapshot[0]) {
        // The browser knows it has no network: wait for its `online` rather than try (a request
        // would only fail, or slip past a service worker that has not heard yet).
        const sent = navigator.onLine === false ? 'wait' : await send(next);
        if (current.current !== queue) return;
        if (sent === 'signedOut') {
          // The session ended: the ticks wait in this user's queue for the next sign-in.
          void revalidate(['session']);
          return;
        }
        if (sent === 'wait') {
          setWaiting(queue);
          const delay = RETRY_MS[Math.min(failures.current, RETRY_MS.length - 1)];
          failures.current += 1;
          timer.current = setTimeout(() => void flush(), delay);
          return;
        }
        failures.current = 0;
        if (sent.list) show(sent.list);
        queue.remove(next);
        if (sent.note) toast({ variant: 'info', ...sent.note });
        if (sent.refused) {
          toast({ title: sent.refused.title, description: sent.refused.message });
          void revalidate(['groceryLists']);
        }
      }
      setWaiting(null);
    } finally {
      sending.current = false;
    }
  }, [queue, show, toast, revalidate]);

  useEffect(() => {
    if (current.current !== queue) {
      // Another user (or none): what the previous queue's loop was doing is not this one's.
      current.current = queue;
      sending.current = false;
      failures.current = 0;
    }
    if (!queue) return;
    const retry = () => {
      failures.current = 0;
      void flush();
    };
    const onVisible = () => document.visibilityState === 'visible' && retry();
    window.addEventListener('online', retry);
    document.addEventListener('visibilitychange', onVisible);
    void flush();
    return () => {
      window.removeEventListener('online', retry);
      document.removeEventListener('visibilitychange', onVisible);
      clearTimeout(timer.current);
    };
  }, [queue, flush]);

  const tick = useCallback(
    (listId: string, itemId: string, checked: boolean) => {
      if (!queue) return;
      queue.add({ listId, itemId, checked, at: new Date().toISOString() });
      // While the server is unreachable the tick waits for the next try.
      if (!stalled) void flush();
    },
    [queue, flush, stalled],
  );

  return useMemo(() => ({ queue: ticks, stalled, tick }), [ticks, stalled, tick]);
}

type Sent =
  | 'wait'
  | 'signedOut'
  | {
      list?: GroceryList;
      note?: { title: string; description: string };
      refused?: { title: string; message: string };
    };

/** One tick to the server: taken (perhaps with a note), refused, or to try again later. */
async function send(tick: PendingTick): Promise<Sent> {
  let result;
  try {
    result = await api.PATCH('/grocery-lists/{id}/items/{itemId}', {
      params: { path: { id: tick.listId, itemId: tick.itemId } },
      body: { checked: tick.checked, at: tick.at },
      signal: AbortSignal.timeout(SEND_TIMEOUT_MS),
    });
  } catch {
    return 'wait';
  }
  const { data, error, response } = result;
  if (data) {
    if (data.applied) return { list: data.list };
    const item = data.list.items.find((i) => i.id === tick.itemId);
    const name = item?.name ?? i18n.t('grocery.ticks.anItem');
    return {
      list: data.list,
      note: {
        title: i18n.t('grocery.ticks.changedElsewhere'),
        description: item?.checked
          ? i18n.t('grocery.ticks.tickedElsewhere', { name })
          : i18n.t('grocery.ticks.untickedElsewhere', { name }),
      },
    };
  }
  if (response.status === 401) return 'signedOut';
  if (NOT_REACHED.has(response.status) || response.status >= 500) return 'wait';
  const body = (error ?? {}) as { title?: string; message?: string };
  return {
    refused: {
      title: i18n.t('grocery.ticks.updateError'),
      message:
        response.status === 404
          ? i18n.t('grocery.ticks.itemGone')
          : (body.message ?? i18n.t('common.unexpectedError')),
    },
  };
}
