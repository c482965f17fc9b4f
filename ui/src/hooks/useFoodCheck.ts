import useSWR from 'swr';

import { api, unwrap, type Schemas } from '../api/client';
import { keys } from './keys';
import { useDebounced } from './useDebounced';

export type FoodCheck = Schemas['FoodCheckDto'];
export type FoodWarning = Schemas['FoodWarningDto'];

/** Asks the server what `foods` mean for a child (its one matcher and rules table). */
export function checkFoods(childId: string, foods: readonly string[], signal?: AbortSignal) {
  return unwrap(
    api.POST('/children/{id}/food-check', {
      params: { path: { id: childId } },
      body: { foods: [...foods] },
      signal,
    }),
    'Error checking foods',
  );
}

/**
 * The food check of the foods being chosen for a child, asked again a moment after typing
 * stops. `current` is the answer for exactly this child and these foods, or null while it is
 * on its way (or when there is nothing to check).
 */
export function useFoodCheck(
  childId: string | null | undefined,
  foods: readonly string[],
): { current: FoodCheck | null } {
  const wanted = JSON.stringify(foods.map((f) => f.trim()).filter(Boolean));
  const asked = useDebounced(wanted, 250);
  const ready = Boolean(childId) && asked !== '[]';
  const { data } = useSWR(
    ready && childId ? keys.foodCheck(childId, asked) : null,
    async ([, id, list]) => ({
      for: `${id}:${list}`,
      check: await checkFoods(id, JSON.parse(list) as string[]),
    }),
    { keepPreviousData: true, revalidateOnFocus: false },
  );
  return { current: data?.for === `${childId}:${wanted}` ? data.check : null };
}

/** Whether a warning should stop a first Save: an allergen, or a hazard not prepared away. */
export const isAlarm = (w: FoodWarning) => w.kind === 'allergen' || !w.prepared;
