import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';

import { useAuth } from '../auth/auth-context';
import { amira, calls, mockApi, renderAt, sentBody, signedIn } from '../test-utils';
import { useGroceryTicks } from './useGroceryTicks';

const TICK = 'PATCH /api/grocery-lists/l1/items/i1';

const list = {
  id: 'l1',
  name: 'Weekly Shop',
  items: [{ id: 'i1', name: 'Milk', quantity: '1 l', checked: true }],
  createdAt: '2026-01-01T00:00:00Z',
  updatedAt: '2026-01-01T00:00:00Z',
  version: 2,
};

function Probe() {
  const { queue, stalled, tick } = useGroceryTicks();
  const { state } = useAuth();
  return (
    <>
      <p data-testid="auth">{state.status}</p>
      <p data-testid="queue">{queue.length}</p>
      <p data-testid="stalled">{String(stalled)}</p>
      <button type="button" onClick={() => tick('l1', 'i1', true)}>
        Tick Milk
      </button>
    </>
  );
}

/** Ticks Milk once signed in; the tick is stored before anything is sent. */
async function tickMilk() {
  renderAt(<Probe />);
  await waitFor(() => expect(screen.getByTestId('auth')).toHaveTextContent('signedIn'));
  await userEvent.setup().click(screen.getByRole('button', { name: 'Tick Milk' }));
}

let mock: ReturnType<typeof mockApi> | null = null;
const fetchMock = () => mock as ReturnType<typeof mockApi>;

afterEach(() => localStorage.clear());

describe('useGroceryTicks', () => {
  it('sends a tick and empties the queue once the server took it', async () => {
    mock = mockApi({
      'GET /api/auth/session': signedIn,
      [TICK]: { status: 200, body: { applied: true, list } },
    });
    await tickMilk();
    await waitFor(() => expect(screen.getByTestId('queue')).toHaveTextContent('0'));
    expect(await sentBody(fetchMock(), 'PATCH', '/api/grocery-lists/l1/items/i1')).toMatchObject({
      checked: true,
    });
    expect(screen.getByTestId('stalled')).toHaveTextContent('false');
    expect(localStorage.getItem(`highchair.pendingTicks.${amira.id}`)).toBeNull();
  });

  it('keeps the tick queued, and says so, while the server cannot be reached', async () => {
    mock = mockApi({
      'GET /api/auth/session': signedIn,
      [TICK]: { status: 503, body: { title: 'Unavailable', message: '' } },
    });
    await tickMilk();
    await waitFor(() => expect(screen.getByTestId('stalled')).toHaveTextContent('true'));
    expect(screen.getByTestId('queue')).toHaveTextContent('1');
    expect(calls(fetchMock(), 'PATCH', '/api/grocery-lists/l1/items/i1')).toHaveLength(1);
  });
});
