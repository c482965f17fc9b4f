import { useCallback } from 'react';
import { unstable_serialize as serialize, useSWRConfig, type Cache, type ScopedMutator } from 'swr';
import { unstable_serialize as serializeInfinite } from 'swr/infinite';

import type { Key, Noun } from './keys';

/** A noun (every key of it) or one exact key (and the keys that extend it). */
export type Target = Noun | Key;

/** The SWR cache and its bound `mutate`, as `useSWRConfig()` gives them. */
export interface CacheScope {
  cache: Cache;
  mutate: ScopedMutator;
}

/**
 * Revalidates every cached key a target names. Keys are arrays starting with their noun, so a
 * target is a key prefix. Plain keys are found with `mutate(filter)`. SWR leaves paged lists
 * (useSWRInfinite, stored as `$inf$` + the first page's key) out of key filters, so they are
 * found among the cache's keys by the prefix `unstable_serialize` from swr/infinite gives the
 * target, and revalidated through that key (useMeals then reloads all its pages).
 */
export function revalidate({ cache, mutate }: CacheScope, targets: readonly Target[]) {
  if (targets.length === 0) return Promise.resolve([]);
  const prefixes = targets.map((t) => (typeof t === 'string' ? [t] : t));
  const plain = prefixes.map((p) => serialize(p));
  const paged = prefixes.map((p) => serializeInfinite(() => p));
  const matches = (key: unknown) => {
    if (!Array.isArray(key)) return false;
    const serialized = serialize(key);
    return plain.some((p) => serialized.startsWith(p));
  };
  const lists = [...cache.keys()].filter((key) => paged.some((p) => key.startsWith(p)));
  return Promise.all([mutate(matches), ...lists.map((key) => mutate(key))]);
}

/**
 * Drops every cached key a target names, without fetching again (and paged lists too): for
 * data that must not outlive a user's session on this browser.
 */
export function forget({ cache }: CacheScope, targets: readonly Target[]) {
  const prefixes = targets.map((t) => (typeof t === 'string' ? [t] : t));
  const plain = prefixes.map((p) => serialize(p));
  const paged = prefixes.map((p) => serializeInfinite(() => p));
  for (const key of [...cache.keys()]) {
    if (plain.some((p) => key.startsWith(p)) || paged.some((p) => key.startsWith(p))) {
      cache.delete(key);
    }
  }
}

/** `revalidate` bound to the SWR cache of this tree: `revalidate(['meals'])`. */
export function useRevalidate() {
  const { cache, mutate } = useSWRConfig();
  return useCallback(
    (targets: readonly Target[]) => revalidate({ cache, mutate }, targets),
    [cache, mutate],
  );
}
