import { useEffect } from 'react';

import { useAuth } from '../auth/auth-context';
import { FAMILY_NOUNS, keys } from './keys';
import { useRevalidate, type Target } from './revalidate';

/** Where the family's change feed is served (Server-Sent Events, DESIGN.md "API conventions"). */
export const EVENTS_URL = '/api/events';

/** `event: change`: one record of the family was written. */
export interface FamilyChange {
  kind:
    | 'child'
    | 'meal'
    | 'media'
    | 'profile'
    | 'family'
    | 'recipe'
    | 'grocery_list'
    | 'meal_plan'
    | 'co_parent'
    | 'family_settings';
  id: string;
  revision: number;
}

const KINDS: readonly string[] = [
  'child',
  'meal',
  'media',
  'profile',
  'family',
  'recipe',
  'grocery_list',
  'meal_plan',
  'co_parent',
  'family_settings',
] satisfies FamilyChange['kind'][];

/** A change event's data, or null when it is not one this UI knows. */
export function parseChange(data: unknown): FamilyChange | null {
  if (typeof data !== 'string') return null;
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { kind, id, revision } = value as Record<string, unknown>;
  if (typeof kind !== 'string' || !KINDS.includes(kind) || typeof id !== 'string') return null;
  return {
    kind: kind as FamilyChange['kind'],
    id,
    revision: typeof revision === 'number' ? revision : 0,
  };
}

/** The SWR keys a change makes stale. */
export function staleAfter(change: FamilyChange): Target[] {
  switch (change.kind) {
    // Meal cards show the child's name, and removing a child removes its meals; the plan's,
    // the recipes' and the food checks' warnings follow the children's allergies and ages.
    case 'child':
      return [
        'children',
        keys.child(change.id),
        'meals',
        'foods',
        'allergens',
        'foodCheck',
        'recipes',
        'mealPlan',
      ];
    case 'meal':
      return ['meals', 'foods', 'allergens'];
    // A photo alone shows nowhere: the meal or profile that uses it sends its own change.
    case 'media':
      return [];
    // The signed-in user is read from the session; members show each other's names.
    case 'profile':
      return ['session', 'family'];
    // Someone joined, left or was removed, or an invite link was made or used.
    case 'family':
      return ['family'];
    // The allergen list: every introduction, and what the meal form says is new.
    case 'family_settings':
      return ['familySettings', 'allergens', 'foodCheck'];
    // A recipe's ingredients decide the plan's allergy warnings.
    case 'recipe':
      return ['recipes', keys.recipe(change.id), 'mealPlan'];
    case 'grocery_list':
      return ['groceryLists', keys.groceryList(change.id)];
    case 'meal_plan':
      return [keys.mealPlan(change.id)];
    // Invited, removed, a new PIN, a longer link, or the co-parent set a PIN (now Active).
    case 'co_parent':
      return ['coParents'];
  }
}

/** `event: resync`: the server cannot say what changed (a gap in the feed), so everything is. */
export const RESYNC: readonly Target[] = FAMILY_NOUNS;

/** Waits before opening a new stream after the browser gave one up. */
const RETRY_MS = [2_000, 5_000, 15_000, 30_000, 60_000];

/**
 * Keeps this tab's family data fresh: while a user is signed in, one EventSource on the change
 * feed, and each event revalidates the SWR keys it names. Mount once, in the signed-in shell.
 *
 * The browser reconnects a dropped stream by itself (sending Last-Event-ID, so the server can
 * resume or say `resync`). When a reconnect is refused (not a 200 event stream: 401 once the
 * session has ended) it gives up; then the session is revalidated, which signs the tab out and
 * closes this. If the session is still good the refusal was something else (a proxy's 502
 * during a restart), and a new stream is opened after a pause, revalidating everything
 * because events may have been missed.
 */
export function useFamilyEvents(): void {
  const { state } = useAuth();
  const revalidate = useRevalidate();
  const userId = state.status === 'signedIn' ? state.user.id : null;

  useEffect(() => {
    if (!userId || typeof EventSource === 'undefined') return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let failures = 0;
    // Another tab of this session took the stream (a session has a few): wait until this tab
    // is looked at again, then take one back, catching up on what was missed.
    let superseded = false;
    const onVisible = () => {
      if (superseded && document.visibilityState === 'visible') {
        superseded = false;
        open(true);
      }
    };

    const open = (afterGap: boolean) => {
      const stream = new EventSource(EVENTS_URL);
      source = stream;
      stream.addEventListener('open', () => {
        failures = 0;
        if (afterGap) void revalidate(RESYNC);
      });
      stream.addEventListener('change', (event) => {
        const change = parseChange(event.data);
        if (change) void revalidate(staleAfter(change));
      });
      stream.addEventListener('resync', () => void revalidate(RESYNC));
      stream.addEventListener('superseded', () => {
        stream.close();
        source = null;
        superseded = true;
      });
      stream.addEventListener('error', () => {
        // CONNECTING: the browser is reconnecting by itself.
        if (stream.readyState !== EventSource.CLOSED) return;
        stream.close();
        source = null;
        void revalidate(['session']);
        // Signing out runs the cleanup below, which cancels this.
        const delay = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)];
        failures += 1;
        retry = setTimeout(() => open(true), delay);
      });
    };

    open(false);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      document.removeEventListener('visibilitychange', onVisible);
      clearTimeout(retry);
      source?.close();
      source = null;
    };
  }, [userId, revalidate]);
}
