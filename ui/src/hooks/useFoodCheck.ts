import i18n from 'i18next';

import { api, unwrap, type Schemas } from '../api/client';
import { keys } from './keys';
import { useSettledAnswer } from './useDebounced';

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
    i18n.t('foodSafety.checkError'),
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
  const current = useSettledAnswer(
    wanted,
    (asked) => (childId && asked !== '[]' ? keys.foodCheck(childId, asked) : null),
    (asked) => checkFoods(childId ?? '', JSON.parse(asked) as string[]),
  );
  return { current };
}

/** Whether a warning should stop a first Save: an allergen, or a hazard not prepared away. */
export const isAlarm = (w: FoodWarning) => w.kind === 'allergen' || !w.prepared;
