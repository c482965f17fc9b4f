import type { ReactNode } from 'react';

import { TickContext } from '../../hooks/tick-context';
import { useGroceryTicks } from '../../hooks/useGroceryTicks';

/** Gives the screens inside it the signed-in user's grocery ticks (see `useGroceryTicks`). */
export function TickSync({ children }: { children: ReactNode }) {
  const ticks = useGroceryTicks();
  return <TickContext.Provider value={ticks}>{children}</TickContext.Provider>;
}
