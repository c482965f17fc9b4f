import i18n from 'i18next';
import { useMemo } from 'react';
import useSWRInfinite from 'swr/infinite';

import { api, unwrap, uploadImage, type Schemas } from '../api/client';
import { keys } from './keys';
import { MEALS_PAGE, readMeals } from './reads';
import { useRevalidate } from './revalidate';

export type Meal = Schemas['MealDto'];
export type MealInput = Schemas['MealRequest'];
type Page = Schemas['MealPage'];

/**
 * Meals newest first, page by page, optionally of one child. `revalidate(['meals'])` reaches
 * every open list; a revalidation reloads all the pages shown (`revalidateAll`), so a meal
 * changed or removed on an older page is not left behind.
 */
export function useMeals(childId: string | null, limit = MEALS_PAGE) {
  const pages = useSWRInfinite(
    (index, previous: Page | null) => {
      if (previous && !previous.nextCursor) return null;
      return [
        ...keys.meals(childId, limit),
        index === 0 ? '' : (previous?.nextCursor ?? ''),
      ] as const;
    },
    ([, , , cursor]) => readMeals(childId, limit, cursor),
    { revalidateFirstPage: true, revalidateAll: true },
  );
  // The same array until the pages change (MealTracker defers rendering a new one).
  const meals = useMemo(() => pages.data?.flatMap((p) => p.items) ?? [], [pages.data]);
  const last = pages.data?.[pages.data.length - 1];
  return {
    meals,
    isLoading: pages.isLoading,
    error: pages.error as unknown,
    hasMore: Boolean(last?.nextCursor),
    loadMore: () => pages.setSize((n) => n + 1),
  };
}

export type Exposure = Schemas['ExposureDto'];

/**
 * Where a save is: uploading the photo (nothing of the meal written yet, safe to abort) or
 * saving the meal (may already be written when an abort arrives).
 */
export type SavePhase = 'upload' | 'save';

/** Record, edit and delete meals; each revalidates every meal list. */
export function useMealActions() {
  const revalidate = useRevalidate();
  /** Uploads a new photo, if any; returns the photo id the meal keeps. */
  const photoOf = async (
    input: MealInput,
    photo: Blob | null,
    signal?: AbortSignal,
  ): Promise<string | undefined> => {
    if (!photo) return input.photo ?? undefined;
    // eslint-disable-next-line no-restricted-syntax -- '/media' is the API path, not text
    const media = await uploadImage('/media', photo, i18n.t('meals.errors.photoUpload'), signal);
    return media.id;
  };
  return {
    /** Uploads the photo (if any) first, then records the meal. */
    record: async (
      input: MealInput,
      photo: Blob | null,
      signal?: AbortSignal,
      phase?: (p: SavePhase) => void,
    ) => {
      phase?.('upload');
      const photoId = await photoOf(input, photo, signal);
      phase?.('save');
      const meal = await unwrap(
        api.POST('/meals', { body: { ...input, photo: photoId }, signal }),
        i18n.t('meals.errors.save'),
      );
      await revalidate(['meals', 'foods', 'allergens']);
      return meal;
    },
    /** `input.version` is the version the edit started from; a stale one fails with 409. */
    update: async (
      id: string,
      input: MealInput,
      photo: Blob | null,
      signal?: AbortSignal,
      phase?: (p: SavePhase) => void,
    ) => {
      phase?.('upload');
      const photoId = await photoOf(input, photo, signal);
      phase?.('save');
      try {
        return await unwrap(
          api.PUT('/meals/{id}', {
            params: { path: { id } },
            body: { ...input, photo: photoId },
            signal,
          }),
          i18n.t('meals.errors.update'),
        );
      } finally {
        await revalidate(['meals', 'foods', 'allergens']);
      }
    },
    remove: async (id: string, signal?: AbortSignal) => {
      await unwrap(
        api.DELETE('/meals/{id}', { params: { path: { id } }, signal }),
        i18n.t('meals.errors.delete'),
      );
      await revalidate(['meals', 'foods', 'allergens']);
    },
  };
}
