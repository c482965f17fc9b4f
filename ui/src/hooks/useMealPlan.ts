import i18n from 'i18next';
import useSWR, { useSWRConfig } from 'swr';

import { ApiFailure, api, unwrap, type Schemas } from '../api/client';
import { applyChange, entryInput, type EntryFields, type PlanChange } from '../lib/mealPlan';
import type { Problem } from '../lib/validation';
import { keys } from './keys';
import { readMealPlan } from './reads';

export type MealPlan = Schemas['MealPlanDto'];
/** A child an entry is not safe for, found before it is saved. */
export type Concern = Schemas['PlanConcernDto'];

/** A week of the family's plan, with the children's allergy warnings. */
export function useMealPlan(week: string) {
  return useSWR(keys.mealPlan(week), () => readMealPlan(week));
}

/** The week as saved now, when a save was refused because it changed elsewhere first. */
function currentWeek(err: unknown): MealPlan | null {
  if (!(err instanceof ApiFailure) || err.status !== 409) return null;
  const current = (err.body as { current?: unknown } | null)?.current;
  if (typeof current !== 'object' || current === null || !('days' in current)) return null;
  return current as MealPlan;
}

/**
 * Saves one change to a week. The whole week is sent with the version it was read at; when
 * another device saved first (409), the change is applied again to the week as it is now and
 * sent once more, so neither device's change is lost.
 */
export function useMealPlanActions() {
  const { mutate } = useSWRConfig();
  const put = (plan: MealPlan, change: PlanChange) =>
    unwrap(
      api.PUT('/meal-plan', {
        params: { query: { week: plan.week } },
        body: { entries: applyChange(plan.entries, change), version: plan.version },
      }),
      i18n.t('plan.error.save'),
    );
  return {
    save: async (plan: MealPlan, change: PlanChange) => {
      let saved: MealPlan;
      try {
        saved = await put(plan, change);
      } catch (err) {
        const now = currentWeek(err);
        if (!now) throw err;
        if (change.kind === 'edit' && !now.entries.some((e) => e.id === change.id)) {
          await mutate(keys.mealPlan(plan.week), now, { revalidate: false });
          throw {
            title: i18n.t('plan.error.save'),
            message: i18n.t('plan.error.removedElsewhere'),
          } satisfies Problem;
        }
        saved = await put(now, change);
      }
      await mutate(keys.mealPlan(plan.week), saved, { revalidate: false });
      return saved;
    },
    /** The children an entry is not safe for, before it is saved (empty when none). */
    check: async (fields: EntryFields, signal?: AbortSignal) =>
      (
        await unwrap(
          api.POST('/meal-plan/check', { body: entryInput(fields), signal }),
          i18n.t('plan.error.save'),
        )
      ).warnings,
    groceryDraft: (week: string) =>
      unwrap(
        api.POST('/grocery-lists/from-meal-plan', { body: { week } }),
        i18n.t('grocery.error.save'),
      ),
  };
}
