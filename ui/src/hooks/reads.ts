/**
 * The first reads of the signed-in screens, shared by their hooks and by `preloadReads`, which
 * starts them as soon as the session is known: while the screen's code is still on its way,
 * instead of after it (a round trip sooner on a phone).
 */
import i18n from 'i18next';
import { preload } from 'swr';

import { api, unwrap } from '../api/client';
import { keys } from './keys';

/** Meals per page of a meal list. */
export const MEALS_PAGE = 50;

export const readChildren = () => unwrap(api.GET('/children'), i18n.t('errors.fetchChildren'));

export const readFoods = (childId: string) =>
  unwrap(
    api.GET('/children/{id}/foods', { params: { path: { id: childId } } }),
    i18n.t('errors.fetchFoodHistory'),
  );

export const readMeals = (childId: string | null, limit: number, cursor: string) =>
  unwrap(
    api.GET('/meals', {
      params: { query: { childId: childId ?? undefined, cursor: cursor || undefined, limit } },
    }),
    i18n.t('errors.fetchMeals'),
  );

export const readGroceryLists = () =>
  unwrap(api.GET('/grocery-lists'), i18n.t('errors.fetchGroceryLists'));

export const readRecipes = () => unwrap(api.GET('/recipes'), i18n.t('errors.loadRecipes'));

export const readSite = () => unwrap(api.GET('/site'), i18n.t('errors.error'));

export const readMealPlan = (week: string) =>
  unwrap(api.GET('/meal-plan', { params: { query: { week } } }), i18n.t('errors.loadMealPlan'));

/**
 * Starts a read. A failure (an unknown child's foods) is the screen's to show when its hook takes
 * the answer; unhandled here, it would be an uncaught error in the page meanwhile.
 */
function start(read: Promise<unknown> | undefined) {
  void read?.catch(() => undefined);
}

/** What a screen reads first; each key exactly as its hook asks for it. */
export const preloadReads = {
  children: () => start(preload(keys.children(), readChildren)),
  foods: (childId: string) => start(preload(keys.foods(childId), () => readFoods(childId))),
  /** The first page of all the children's meals (the meal tracker's first tab). */
  meals: () =>
    start(preload([...keys.meals(null, MEALS_PAGE), ''], () => readMeals(null, MEALS_PAGE, ''))),
  groceryLists: () => start(preload(keys.groceryLists(), readGroceryLists)),
  recipes: () => start(preload(keys.recipes(), readRecipes)),
  site: () => start(preload(keys.site(), readSite)),
  mealPlan: (week: string) => start(preload(keys.mealPlan(week), () => readMealPlan(week))),
};
