import { createContext, useContext } from 'react';

import type { PendingTick } from '../lib/pendingTicks';

export interface Ticks {
  /** Ticks not yet accepted by the server, oldest first. */
  queue: readonly PendingTick[];
  /** The server cannot be reached: queued ticks wait, and are shown as pending. */
  stalled: boolean;
  /** Ticks an item at once on screen and queues it for the server. */
  tick: (listId: string, itemId: string, checked: boolean) => void;
}

export const TickContext = createContext<Ticks | null>(null);

/** The grocery ticks of the signed-in user: see `useGroceryTicks`. */
export function useTicks(): Ticks {
  const context = useContext(TickContext);
  if (!context) throw new Error('useTicks must be used inside <TickSync>');
  return context;
}
