import i18n from 'i18next';
import { useMemo } from 'react';
import useSWR from 'swr';

import { ApiFailure, api, unwrap, type Schemas } from '../api/client';
import { keys } from './keys';
import { readChildren, readFoods } from './reads';
import { useRevalidate } from './revalidate';

export type Child = Schemas['ChildDto'];
export type ChildInput = Schemas['ChildRequest'];

/**
 * The family's children, by name. Failures keep an empty list (spec section 8). Nothing is
 * fetched when `enabled` is false (a public screen seen by a visitor).
 */
export function useChildren(enabled = true) {
  return useSWR(enabled ? keys.children() : null, readChildren);
}

export type FoodHistory = Schemas['FoodHistoryDto'];

/** A child's food history: every food, first tried, times, liking, exposures, reactions. */
export function useFoodHistory(childId: string) {
  return useSWR(keys.foods(childId), () => readFoods(childId));
}

export type AllergenIntro = Schemas['AllergenIntroDto'];

/** A child's allergen introduction: each allergen of the list and where the child is with it. */
export function useAllergens(childId: string) {
  return useSWR(keys.allergens(childId), () =>
    unwrap(
      api.GET('/children/{id}/allergens', { params: { path: { id: childId } } }),
      i18n.t('foodSafety.intro.fetchError'),
    ),
  );
}

/** What deleting a child takes with it; nothing is fetched while `childId` is null. */
export function useDeletePreview(childId: string | null) {
  return useSWR(childId ? keys.deletePreview(childId) : null, () =>
    unwrap(
      api.GET('/children/{id}/delete-preview', { params: { path: { id: childId ?? '' } } }),
      i18n.t('children.error'),
    ),
  );
}

/** Child names by id, for meal cards; a meal whose child is gone finds no name. */
export function useChildNames(children: Child[] | undefined): Map<string, string> {
  return useMemo(() => new Map(children?.map((c) => [c.id, c.name])), [children]);
}

/** Create, update and delete, each revalidating what it changed. */
export function useChildActions() {
  const revalidate = useRevalidate();
  return {
    create: async (input: ChildInput, signal?: AbortSignal) => {
      const child = await unwrap(
        api.POST('/children', { body: input, signal }),
        i18n.t('children.errors.save'),
      );
      await revalidate(['children']);
      return child;
    },
    /** `input.version` is the version the edit started from; a stale one fails with 409. */
    update: async (id: string, input: ChildInput, signal?: AbortSignal) => {
      try {
        const child = await unwrap(
          api.PUT('/children/{id}', { params: { path: { id } }, body: input, signal }),
          i18n.t('children.errors.update'),
        );
        await revalidate(['children', keys.child(id)]);
        return child;
      } catch (err) {
        // Changed elsewhere: show the lists as saved now.
        if (err instanceof ApiFailure && err.status === 409) {
          void revalidate(['children', keys.child(id)]);
        }
        throw err;
      }
    },
    /** Removes the child and its meals. */
    remove: async (id: string, signal?: AbortSignal) => {
      await unwrap(
        api.DELETE('/children/{id}', { params: { path: { id } }, signal }),
        i18n.t('children.errors.delete'),
      );
      await revalidate(['children', keys.child(id), 'meals']);
    },
  };
}
