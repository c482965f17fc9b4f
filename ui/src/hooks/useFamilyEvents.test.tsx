import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import useSWR from 'swr';
import useSWRInfinite from 'swr/infinite';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { useAuth } from '../auth/auth-context';
import { calls, mockApi, noSession, renderAt, signedIn } from '../test-utils';
import { keys, type Noun } from './keys';
import {
  EVENTS_URL,
  parseChange,
  staleAfter,
  useFamilyEvents,
  type FamilyChange,
} from './useFamilyEvents';
import { useChildren } from './useChildren';
import { useMeals } from './useMeals';

/** Stands in for the browser's EventSource: the test opens, feeds and fails it. */
class FakeEventSource extends EventTarget {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 2;
  static all: FakeEventSource[] = [];
  readyState = FakeEventSource.CONNECTING;

  constructor(readonly url: string) {
    super();
    FakeEventSource.all.push(this);
  }

  close() {
    this.readyState = FakeEventSource.CLOSED;
  }

  open() {
    this.readyState = FakeEventSource.OPEN;
    this.dispatchEvent(new Event('open'));
  }

  emit(type: string, data: unknown) {
    this.dispatchEvent(new MessageEvent(type, { data: JSON.stringify(data) }));
  }

  /** The browser gave up: a reconnect was answered with something other than a 200 stream. */
  refuse() {
    this.readyState = FakeEventSource.CLOSED;
    this.dispatchEvent(new Event('error'));
  }

  static get live() {
    return FakeEventSource.all.filter((s) => s.readyState !== FakeEventSource.CLOSED);
  }
}

beforeEach(() => {
  FakeEventSource.all = [];
  vi.stubGlobal('EventSource', FakeEventSource);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('the keys each event makes stale', () => {
  const change = (kind: FamilyChange['kind']) => ({
    kind,
    id: 'x1',
    revision: 7,
  });

  it('maps every kind', () => {
    expect(staleAfter(change('child'))).toEqual([
      'children',
      keys.child('x1'),
      'meals',
      'foods',
      'allergens',
      'foodCheck',
      'recipes',
      'mealPlan',
    ]);
    expect(staleAfter(change('meal'))).toEqual(['meals', 'foods', 'allergens']);
    expect(staleAfter(change('media'))).toEqual([]);
    expect(staleAfter(change('profile'))).toEqual(['session', 'family']);
    expect(staleAfter(change('family'))).toEqual(['family']);
    expect(staleAfter(change('family_settings'))).toEqual([
      'familySettings',
      'allergens',
      'foodCheck',
    ]);
    expect(staleAfter(change('recipe'))).toEqual(['recipes', keys.recipe('x1'), 'mealPlan']);
    expect(staleAfter(change('meal_plan'))).toEqual([keys.mealPlan('x1')]);
    expect(staleAfter(change('grocery_list'))).toEqual(['groceryLists', keys.groceryList('x1')]);
    expect(staleAfter(change('co_parent'))).toEqual(['coParents']);
  });

  it('reads change data and ignores what it does not know', () => {
    expect(parseChange('{"kind":"meal","id":"m1","revision":3}')).toEqual({
      kind: 'meal',
      id: 'm1',
      revision: 3,
    });
    expect(parseChange('{"kind":"grocery","id":"g1","revision":3}')).toBeNull();
    expect(parseChange('{"kind":"meal"}')).toBeNull();
    expect(parseChange('not json')).toBeNull();
    expect(parseChange(undefined)).toBeNull();
  });
});

const emma = {
  id: 'c1',
  name: 'Emma',
  age: 4,
  dietaryRestrictions: [],
  allergies: [],
  createdAt: '',
  updatedAt: '',
  version: 1,
};

/** The signed-in shell as far as the feed is concerned, with a meal list and the children. */
function Shell() {
  useFamilyEvents();
  const { state, logout } = useAuth();
  const { data: children } = useChildren();
  const { meals } = useMeals(null);
  return (
    <>
      <p data-testid="user">{state.user?.firstName ?? 'nobody'}</p>
      <p data-testid="children">{children?.map((c) => c.name).join(',')}</p>
      <p data-testid="meals">{meals.length}</p>
      <button type="button" onClick={() => void logout()}>
        Log Out
      </button>
    </>
  );
}

function family() {
  let childName = 'Emma';
  let session = signedIn;
  const fetch = mockApi({
    'GET /api/auth/session': () => session,
    'GET /api/children': () => ({ status: 200, body: [{ ...emma, name: childName }] }),
    'GET /api/meals': { status: 200, body: { items: [], nextCursor: null } },
    'POST /api/auth/logout': { status: 204, body: null },
  });
  const count = (path: string) => calls(fetch, 'GET', path).length;
  return {
    fetch,
    count,
    rename: (name: string) => (childName = name),
    endSession: () => (session = noSession),
  };
}

async function signedInShell() {
  const api = family();
  renderAt(<Shell />);
  await waitFor(() => expect(screen.getByTestId('children')).toHaveTextContent('Emma'));
  await waitFor(() => expect(api.count('/api/meals')).toBeGreaterThan(0));
  // The signed-in state reaches the shell in a deferred render (AuthProvider).
  await waitFor(() => expect(FakeEventSource.all).toHaveLength(1));
  const source = FakeEventSource.all[0] as FakeEventSource;
  act(() => source.open());
  return { ...api, source };
}

describe('useFamilyEvents', () => {
  it('opens no stream for a visitor', async () => {
    mockApi();
    renderAt(<Shell />);
    await waitFor(() => expect(screen.getByTestId('user')).toHaveTextContent('nobody'));
    expect(FakeEventSource.all).toHaveLength(0);
  });

  it('opens one stream and revalidates exactly the keys a change names', async () => {
    const { source, count, rename } = await signedInShell();
    expect(source.url).toBe(EVENTS_URL);
    const before = {
      children: count('/api/children'),
      meals: count('/api/meals'),
      session: count('/api/auth/session'),
    };

    act(() => source.emit('change', { kind: 'meal', id: 'm1', revision: 2 }));
    await waitFor(() => expect(count('/api/meals')).toBe(before.meals + 1));
    expect(count('/api/children')).toBe(before.children);
    expect(count('/api/auth/session')).toBe(before.session);

    rename('Emma-Rose');
    act(() => source.emit('change', { kind: 'child', id: 'c1', revision: 3 }));
    await waitFor(() => expect(screen.getByTestId('children')).toHaveTextContent('Emma-Rose'));
    await waitFor(() => expect(count('/api/meals')).toBe(before.meals + 2));
    expect(count('/api/auth/session')).toBe(before.session);

    act(() => source.emit('change', { kind: 'media', id: 'p1', revision: 4 }));
    act(() => source.emit('change', { kind: 'profile', id: 'u1', revision: 5 }));
    await waitFor(() => expect(count('/api/auth/session')).toBe(before.session + 1));
    expect(count('/api/children')).toBe(before.children + 1);
    expect(count('/api/meals')).toBe(before.meals + 2);

    act(() => source.emit('resync', { revision: 9 }));
    await waitFor(() => expect(count('/api/auth/session')).toBe(before.session + 2));
    await waitFor(() => expect(count('/api/children')).toBe(before.children + 2));
    await waitFor(() => expect(count('/api/meals')).toBe(before.meals + 3));
    expect(FakeEventSource.all).toHaveLength(1);
  });

  it('closes the stream on sign-out', async () => {
    const { source } = await signedInShell();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Log Out' }));
    await waitFor(() => expect(screen.getByTestId('user')).toHaveTextContent('nobody'));
    expect(source.readyState).toBe(FakeEventSource.CLOSED);
    expect(FakeEventSource.all).toHaveLength(1);
  });

  it('when the session has ended, signs the tab out and stops reconnecting', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { source, count, endSession } = await signedInShell();
    const sessionChecks = count('/api/auth/session');
    endSession();
    act(() => source.refuse());
    await waitFor(() => expect(screen.getByTestId('user')).toHaveTextContent('nobody'));
    expect(count('/api/auth/session')).toBe(sessionChecks + 1);
    act(() => vi.advanceTimersByTime(5 * 60_000));
    expect(FakeEventSource.all).toHaveLength(1);
    expect(FakeEventSource.live).toHaveLength(0);
  });

  it('when refused with the session still good, opens a new stream later and catches up', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { source, count } = await signedInShell();
    const sessionChecks = count('/api/auth/session');
    act(() => source.refuse());
    await waitFor(() => expect(count('/api/auth/session')).toBe(sessionChecks + 1));
    expect(screen.getByTestId('user')).toHaveTextContent('Amira');
    expect(FakeEventSource.all).toHaveLength(1);
    act(() => vi.advanceTimersByTime(2_000));
    expect(FakeEventSource.live).toHaveLength(1);
    const children = count('/api/children');
    act(() => FakeEventSource.live[0]?.open());
    // Events may have been missed while no stream was open.
    await waitFor(() => expect(count('/api/children')).toBe(children + 1));
  });

  it('when another tab takes the stream, waits for this tab to be looked at again', async () => {
    const { source, count } = await signedInShell();
    let visibility: DocumentVisibilityState = 'hidden';
    vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
    act(() => source.emit('superseded', { kind: 'superseded', revision: 7 }));
    expect(FakeEventSource.live).toHaveLength(0);
    act(() => document.dispatchEvent(new Event('visibilitychange')));
    expect(FakeEventSource.all).toHaveLength(1);
    const children = count('/api/children');
    visibility = 'visible';
    act(() => document.dispatchEvent(new Event('visibilitychange')));
    expect(FakeEventSource.live).toHaveLength(1);
    act(() => FakeEventSource.live[0]?.open());
    await waitFor(() => expect(count('/api/children')).toBe(children + 1));
  });
});

/**
 * The nouns of `keys` a resync leaves alone, each with the reason it is not the family's data.
 * Every other noun the app caches under must be refetched by a resync: a new noun goes into
 * RESYNC (keys.ts, FAMILY_NOUNS) or here.
 */
const NOT_FAMILY_DATA: Partial<Record<Noun, string>> = {
  site: "the server's settings, the same for every visitor",
  resetLink: 'a password-reset link, read before signing in',
  invitePreview: 'an invite link, read before joining',
  deletePreview: "a child's meal and photo count, read again each time Remove asks",
  ingredients: 'the built-in ingredient catalogue, the same for everyone',
  leftOut: 'the catalogue checked against what the parent types, asked again as they type',
  groceryEstimate: 'prices of the items being typed, asked again as they type',
};

const NOUNS = Object.keys(keys) as Noun[];

/** A key of `noun`, made by its factory (placeholder arguments), as the hooks make theirs. */
function keyOf(noun: Noun): readonly unknown[] {
  const factory = keys[noun] as (...args: string[]) => readonly unknown[];
  return factory(...Array.from({ length: factory.length }, () => 'x'));
}

/** Reads `noun` the two ways the hooks do: a plain key, and a paged list (useSWRInfinite). */
function Readers({ noun, fetched }: { noun: Noun; fetched: Set<string> }) {
  const quiet = { revalidateOnFocus: false, revalidateOnReconnect: false };
  useSWR(
    [...keyOf(noun), 'reader'],
    () => {
      fetched.add(`${noun} (plain)`);
      return 1;
    },
    quiet,
  );
  useSWRInfinite(
    (index) => [...keyOf(noun), 'pages', index],
    () => {
      fetched.add(`${noun} (paged)`);
      return 1;
    },
    quiet,
  );
  return null;
}

describe('a resync', () => {
  it("refetches every reader of the family's data, plain or paged, and nothing else", async () => {
    const fetched = new Set<string>();
    function Screens() {
      useFamilyEvents();
      return NOUNS.map((noun) => <Readers key={noun} noun={noun} fetched={fetched} />);
    }
    mockApi({ 'GET /api/auth/session': signedIn });
    renderAt(<Screens />);
    await waitFor(() => expect(FakeEventSource.all).toHaveLength(1));
    await waitFor(() => expect(fetched.size).toBe(NOUNS.length * 2));
    const source = FakeEventSource.all[0] as FakeEventSource;
    act(() => source.open());
    fetched.clear();

    act(() => source.emit('resync', { revision: 9 }));
    const expected = NOUNS.filter((noun) => !(noun in NOT_FAMILY_DATA))
      .flatMap((noun) => [`${noun} (paged)`, `${noun} (plain)`])
      .sort();
    await waitFor(() => expect([...fetched].sort()).toEqual(expected));
  });
});
