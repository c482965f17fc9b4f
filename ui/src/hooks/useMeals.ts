import useSWRInfinite from 'swr/infinite';

import { api, unwrap, uploadImage, type Schemas } from '../api/client';
import { keys } from './keys';
import { useRevalidate } from './revalidate';

export type Meal = Schemas['MealDto'];
export type MealInput = Schemas['MealRequest'];
type Page = Schemas['MealPage'];

/**
 * Meals newest first, page by page, optionally of one child. `revalidate(['meals'])` reaches
 * every open list; a revalidation reloads all the pages shown (`revalidateAll`), so a meal
 * changed or removed on an older page is not left behind.
 */
export function useMeals(childId: string | null, limit = 50) {
  const pages = useSWRInfinite(
    (index, previous: Page | null) => {
      if (previous && !previous.nextCursor) return null;
      return [
        ...keys.meals(childId, limit),
        index === 0 ? '' : (previous?.nextCursor ?? ''),
      ] as const;
    },
    ([, , , cursor]) =>
      unwrap(
        api.GET('/meals', {
          params: { query: { childId: childId ?? undefined, cursor: cursor || undefined, limit } },
        }),
        'Error fetching meals',
      ),
    { revalidateFirstPage: true, revalidateAll: true },
  );
  const meals = pages.data?.flatMap((p) => p.items) ?? [];
  const last = pages.data?.[pages.data.length - 1];
  return {
    meals,
    isLoading: pages.isLoading,
    error: pages.error as unknown,
    hasMore: Boolean(last?.nextCursor),
    loadMore: () => pages.setSize((n) => n + 1),
  };
}

/** Record and delete meals; both revalidate every meal list. */
export function useMealActions() {
  const revalidate = useRevalidate();
  return {
    /** Uploads the photo (if any) first, then records the meal. */
    record: async (input: MealInput, photo: Blob | null, signal?: AbortSignal) => {
      let photoId: string | undefined;
      if (photo) {
        const media = await uploadImage('/media', photo, 'Photo upload failed', signal);
        photoId = media.id;
      }
      const meal = await unwrap(
        api.POST('/meals', { body: { ...input, photo: photoId }, signal }),
        'Error saving meal',
      );
      await revalidate(['meals']);
      return meal;
    },
    remove: async (id: string, signal?: AbortSignal) => {
      await unwrap(
        api.DELETE('/meals/{id}', { params: { path: { id } }, signal }),
        'Error deleting meal',
      );
      await revalidate(['meals']);
    },
  };
}
