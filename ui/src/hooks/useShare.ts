import i18n from 'i18next';
import { useEffect } from 'react';
import { useParams } from 'react-router-dom';
import useSWR, { useSWRConfig } from 'swr';

import { ApiFailure, api, unwrap, type Schemas } from '../api/client';
import { useToast } from '../components/ui/toast-context';
import { parseChange, type FamilyChange } from './useFamilyEvents';

export type ShareInvitation = Schemas['ShareInvitation'];
export type ShareSession = Schemas['ShareSessionInfo'];
export type SharedMeal = Schemas['MealDto'];
export type SharedList = Schemas['GroceryListDto'];

/**
 * A co-parent's data, keyed under their link: `['share', token, what, ...]`. Nothing of it is
 * shared with a parent's keys, so a parent signed in on the same browser never sees it mixed in.
 */
const shareKey = (token: string, what: string, ...rest: string[]) =>
  ['share', token, what, ...rest] as const;

const path = (token: string) => ({ params: { path: { token } } });

/** What a link is for; `error.status` 404 (unknown) or 410 (expired). */
export function useShareInvitation(token: string) {
  return useSWR<ShareInvitation, ApiFailure>(shareKey(token, 'invitation'), () =>
    unwrap(api.GET('/share/{token}', path(token)), i18n.t('errors.pinSetup')),
  );
}

/**
 * Records a session just opened (a PIN chosen or entered), so the dashboard shows it at once
 * rather than the refusal probed a moment before.
 */
export function useShareSignedIn(token: string) {
  const { mutate } = useSWRConfig();
  return async (session: ShareSession) => {
    // A PIN chosen makes the link Active: the next visit asks to enter it.
    await mutate(
      shareKey(token, 'invitation'),
      { name: session.name, state: session.state },
      { revalidate: false },
    );
    await mutate(shareKey(token, 'session'), session, { revalidate: false });
  };
}

/** This browser's share session for the link; `error.status` 401 when there is none. */
export function useShareSession(token: string) {
  return useSWR<ShareSession, ApiFailure>(shareKey(token, 'session'), () =>
    unwrap(api.GET('/share/{token}/session', path(token)), i18n.t('errors.unauthorized')),
  );
}

/**
 * A share read refused with 401 means the session ended (a PIN reset, Logout elsewhere, 24
 * hours): the session is checked again, and the dashboard shows the spec's expired text.
 */
function useSessionCheck(token: string) {
  const { mutate } = useSWRConfig();
  return {
    onError: (error: unknown) => {
      if (error instanceof ApiFailure && error.status === 401) {
        void mutate(shareKey(token, 'session'));
      }
    },
  };
}

export function useShareChildren(token: string, enabled: boolean) {
  return useSWR(
    enabled ? shareKey(token, 'children') : null,
    () => unwrap(api.GET('/share/{token}/children', path(token)), i18n.t('errors.fetchChildren')),
    useSessionCheck(token),
  );
}

/** The newest 100 meals, of one child or all. */
export function useShareMeals(token: string, childId: string | null, enabled: boolean) {
  return useSWR(
    enabled ? shareKey(token, 'meals', childId ?? 'all') : null,
    () =>
      unwrap(
        api.GET('/share/{token}/meals', {
          params: { path: { token }, query: { childId: childId ?? undefined, limit: 100 } },
        }),
        i18n.t('errors.fetchMeals'),
      ),
    useSessionCheck(token),
  );
}

export function useShareLists(token: string, enabled: boolean) {
  return useSWR(
    enabled ? shareKey(token, 'groceryLists') : null,
    () =>
      unwrap(
        api.GET('/share/{token}/grocery-lists', path(token)),
        i18n.t('errors.fetchGroceryLists'),
      ),
    useSessionCheck(token),
  );
}

export function useShareMealPlan(token: string, week: string, enabled: boolean) {
  return useSWR(
    enabled ? shareKey(token, 'mealPlan', week) : null,
    () =>
      unwrap(
        api.GET('/share/{token}/meal-plan', { params: { path: { token }, query: { week } } }),
        i18n.t('errors.fetchMealPlan'),
      ),
    useSessionCheck(token),
  );
}

/** The link's token from the address, in the one spelling the server's cookie path uses. */
/** One child's allergen introduction, read only. */
export function useShareAllergens(token: string, childId: string | null) {
  return useSWR(childId ? shareKey(token, 'allergens', childId) : null, () =>
    unwrap(
      api.GET('/share/{token}/children/{id}/allergens', {
        params: { path: { token, id: childId ?? '' } },
      }),
      i18n.t('errors.fetchAllergens'),
    ),
  );
}

export function useShareToken(): string {
  return (useParams().token ?? '').toLowerCase();
}

/** PIN set-up, sign-in, sign-out and ticks: the co-parent's actions. */
export const shareActions = {
  choosePin: (token: string, pin: string, confirmPin: string, signal?: AbortSignal) =>
    unwrap(
      api.POST('/share/{token}/pin', { ...path(token), body: { pin, confirmPin }, signal }),
      i18n.t('errors.pinSetup'),
    ),
  signIn: (token: string, pin: string, signal?: AbortSignal) =>
    unwrap(
      api.POST('/share/{token}/session', { ...path(token), body: { pin }, signal }),
      i18n.t('errors.pinSetup'),
    ),
  signOut: (token: string) =>
    unwrap(api.DELETE('/share/{token}/session', path(token)), i18n.t('errors.unauthorized')),
  tick: (token: string, listId: string, itemId: string, checked: boolean) =>
    unwrap(
      api.PATCH('/share/{token}/grocery-lists/{id}/items/{itemId}', {
        params: { path: { token, id: listId, itemId } },
        body: { checked, at: new Date().toISOString() },
      }),
      i18n.t('errors.update'),
    ),
};

/**
 * The co-parent's grocery lists, and their ticks: sent at once (no offline queue on this
 * screen), shown at once, then replaced by the server's answer or rolled back with a toast.
 */
export function useShareGroceries(token: string) {
  const lists = useShareLists(token, true);
  const { toast } = useToast();

  const tick = async (list: SharedList, itemId: string, checked: boolean) => {
    // Shown at once; the server's answer replaces it (or the tick is rolled back).
    const shown = lists.data?.map((l) =>
      l.id === list.id
        ? { ...l, items: l.items.map((i) => (i.id === itemId ? { ...i, checked } : i)) }
        : l,
    );
    try {
      await lists.mutate(
        async () => {
          const result = await shareActions.tick(token, list.id, itemId, checked);
          return (lists.data ?? []).map((l) => (l.id === list.id ? result.list : l));
        },
        { optimisticData: shown, rollbackOnError: true, revalidate: false },
      );
    } catch (err) {
      const failure = err instanceof ApiFailure ? err : null;
      toast({
        variant: 'error',
        title: i18n.t('errors.update'),
        description: failure?.message ?? i18n.t('common.unexpectedError'),
      });
      void lists.mutate();
    }
  };

  return { lists, tick };
}

/** What a co-parent's page shows, fetched again after a gap in the feed. */
const EVERYTHING = ['children', 'meals', 'groceryLists', 'mealPlan', 'allergens'];

/** The share data a change makes stale. */
export function shareStaleAfter(change: FamilyChange): string[] {
  switch (change.kind) {
    case 'child':
      return ['children', 'meals', 'mealPlan', 'allergens'];
    case 'meal':
      return ['meals', 'allergens'];
    case 'family_settings':
      return ['allergens'];
    case 'grocery_list':
      return ['groceryLists'];
    case 'meal_plan':
    case 'recipe':
      return ['mealPlan'];
    default:
      return [];
  }
}

/** Drops every cached key of a link (its session ended: nothing of it stays on the phone). */
export function useForgetShare(token: string) {
  const { mutate } = useSWRConfig();
  return () =>
    mutate(
      (key) =>
        Array.isArray(key) && key[0] === 'share' && key[1] === token && key[2] !== 'invitation',
      undefined,
      { revalidate: false },
    );
}

/**
 * Follows the family's changes while the co-parent's session lasts. When the stream is refused
 * (the session ended: Logout elsewhere, a PIN reset, the co-parent removed), the session is
 * checked again, which shows the expired-session text.
 */
export function useShareEvents(token: string, enabled: boolean): void {
  const { mutate } = useSWRConfig();
  useEffect(() => {
    if (!enabled || typeof EventSource === 'undefined') return;
    const revalidate = (whats: readonly string[]) =>
      mutate(
        (key) =>
          Array.isArray(key) &&
          key[0] === 'share' &&
          key[1] === token &&
          whats.includes(String(key[2])),
      );
    const stream = new EventSource(`/api/share/${encodeURIComponent(token)}/events`);
    let gap = false;
    stream.addEventListener('open', () => {
      if (gap) void revalidate(EVERYTHING);
    });
    stream.addEventListener('change', (event) => {
      const change = parseChange(event.data);
      if (change) void revalidate(shareStaleAfter(change));
    });
    stream.addEventListener('resync', () => {
      void revalidate(EVERYTHING);
    });
    stream.addEventListener('error', () => {
      gap = true;
      if (stream.readyState === EventSource.CLOSED) void revalidate(['session']);
    });
    return () => stream.close();
  }, [token, enabled, mutate]);
}
