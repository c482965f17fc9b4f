import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSWRConfig } from 'swr';
import { afterEach, describe, expect, it, vi } from 'vitest';

import { calls, mockApi, renderAt, signedIn } from '../test-utils';
import { useRevalidate } from './revalidate';
import { useChildren } from './useChildren';
import { useMeals } from './useMeals';

afterEach(() => {
  vi.unstubAllGlobals();
});

const meal = (id: string) => ({
  id,
  childId: 'c1',
  mealType: 'Lunch',
  foods: [id],
  portion: 'full',
  mood: 'happy',
  notes: '',
  mealDate: '2025-05-20T12:30:00Z',
  createdAt: '',
  updatedAt: '',
  version: 1,
});

/** An open meal list (paged, useSWRInfinite) and the children list, as the screens use them. */
function Lists({ limit }: { limit: number }) {
  const revalidate = useRevalidate();
  const { mutate } = useSWRConfig();
  const { meals, loadMore } = useMeals(null, limit);
  const { data: children } = useChildren();
  return (
    <>
      <p data-testid="meals">{meals.map((m) => m.id).join(',')}</p>
      <p data-testid="children">{children?.length ?? '-'}</p>
      <button type="button" onClick={() => void revalidate(['meals'])}>
        revalidate meals
      </button>
      <button type="button" onClick={() => void revalidate(['children'])}>
        revalidate children
      </button>
      <button
        type="button"
        onClick={() => void mutate((key) => Array.isArray(key) && key[0] === 'meals')}
      >
        key filter
      </button>
      <button type="button" onClick={() => void loadMore()}>
        more
      </button>
    </>
  );
}

describe('revalidate by noun', () => {
  it("reaches an open paged meal list, which a plain key filter cannot, and only that noun's keys", async () => {
    let served = [meal('m1')];
    const fetch = mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/meals': () => ({ status: 200, body: { items: served, nextCursor: null } }),
      'GET /api/children': { status: 200, body: [] },
    });
    const user = userEvent.setup();
    renderAt(<Lists limit={5} />);
    await waitFor(() => expect(screen.getByTestId('meals')).toHaveTextContent('m1'));
    await waitFor(() => expect(screen.getByTestId('children')).toHaveTextContent('0'));
    const mealFetches = () => calls(fetch, 'GET', '/api/meals').length;
    const childFetches = calls(fetch, 'GET', '/api/children').length;
    const before = mealFetches();
    served = [meal('m2'), meal('m1')];

    // SWR leaves useSWRInfinite's `$inf$` keys out of key filters: this reaches no open list.
    await user.click(screen.getByRole('button', { name: 'key filter' }));
    await new Promise((r) => setTimeout(r, 50));
    expect(mealFetches()).toBe(before);
    expect(screen.getByTestId('meals')).toHaveTextContent(/^m1$/);

    await user.click(screen.getByRole('button', { name: 'revalidate meals' }));
    await waitFor(() => expect(screen.getByTestId('meals')).toHaveTextContent('m2,m1'));
    expect(mealFetches()).toBe(before + 1);
    expect(calls(fetch, 'GET', '/api/children')).toHaveLength(childFetches);

    await user.click(screen.getByRole('button', { name: 'revalidate children' }));
    await waitFor(() =>
      expect(calls(fetch, 'GET', '/api/children')).toHaveLength(childFetches + 1),
    );
    expect(mealFetches()).toBe(before + 1);
  });

  it('reloads every page of a list that shows more than one', async () => {
    const fetch = mockApi({
      'GET /api/auth/session': signedIn,
      'GET /api/children': { status: 200, body: [] },
      'GET /api/meals': (r) =>
        new URL(r.url).searchParams.get('cursor') === 'p2'
          ? { status: 200, body: { items: [meal('m3')], nextCursor: null } }
          : { status: 200, body: { items: [meal('m1'), meal('m2')], nextCursor: 'p2' } },
    });
    const user = userEvent.setup();
    renderAt(<Lists limit={2} />);
    await waitFor(() => expect(screen.getByTestId('meals')).toHaveTextContent('m1,m2'));
    await user.click(screen.getByRole('button', { name: 'more' }));
    await waitFor(() => expect(screen.getByTestId('meals')).toHaveTextContent('m1,m2,m3'));
    const pageTwo = () =>
      calls(fetch, 'GET', '/api/meals').filter((r) => new URL(r.url).searchParams.has('cursor'));
    const before = pageTwo().length;
    await user.click(screen.getByRole('button', { name: 'revalidate meals' }));
    await waitFor(() => expect(pageTwo()).toHaveLength(before + 1));
  });
});
