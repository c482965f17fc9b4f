import useSWRInfinite from 'swr/infinite';

import { api, unwrap, uploadImage, type Schemas } from '../api/client';
import { keys } from './keys';

export type Meal = Schemas['MealDto'];
export type MealInput = Schemas['MealRequest'];
type Page = Schemas['MealPage'];

/** Meals newest first, page by page, optionally of one child. */
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
    { revalidateFirstPage: true },
  );
  const meals = pages.data?.flatMap((p) => p.items) ?? [];
  const last = pages.data?.[pages.data.length - 1];
  return {
    meals,
    isLoading: pages.isLoading,
    error: pages.error as unknown,
    hasMore: Boolean(last?.nextCursor),
    loadMore: () => pages.setSize((n) => n + 1),
    /** Reloads the pages shown. SWR keeps paged lists under its own key, out of reach of `mutate(key)`. */
    refresh: () => pages.mutate(),
  };
}

/** Record and delete meals. The screen showing a list refreshes it with `useMeals().refresh`. */
export function useMealActions() {
  return {
    /** Uploads the photo (if any) first, then records the meal. */
    record: async (input: MealInput, photo: Blob | null) => {
      let photoId: string | undefined;
      if (photo) {
        const media = await uploadImage<Schemas['MediaDto']>(
          '/media',
          photo,
          'Photo upload failed',
        );
        photoId = media.id;
      }
      return unwrap(
        api.POST('/meals', { body: { ...input, photo: photoId } }),
        'Error saving meal',
      );
    },
    remove: async (id: string) => {
      await unwrap(api.DELETE('/meals/{id}', { params: { path: { id } } }), 'Error deleting meal');
    },
  };
}
