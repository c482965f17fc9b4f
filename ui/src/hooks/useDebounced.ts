import { useEffect, useState } from 'react';
import useSWR from 'swr';

/** `value`, once it has stayed the same for `ms`: a request per pause, not per keystroke. */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * The server's answer about what is being typed (`wanted`, as text), asked again a moment
 * after typing stops. `keyOf` names the question (SWR's key; null: nothing to ask). The answer
 * is the one for exactly `wanted`, or null while that one is on its way.
 */
export function useSettledAnswer<T>(
  wanted: string,
  keyOf: (text: string) => readonly (string | number)[] | null,
  ask: (text: string) => Promise<T>,
): T | null {
  const asked = useDebounced(wanted, 250);
  const key = keyOf(asked);
  const { data } = useSWR(
    key,
    async () => ({ for: JSON.stringify(key), answer: await ask(asked) }),
    { keepPreviousData: true, revalidateOnFocus: false },
  );
  const now = keyOf(wanted);
  return now && data?.for === JSON.stringify(now) ? data.answer : null;
}
