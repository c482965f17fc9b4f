import i18n from 'i18next';
import { useCallback } from 'react';
import useSWR, { useSWRConfig } from 'swr';

import { ApiFailure, api, unwrap, type Schemas } from '../api/client';
import { keys } from './keys';
import { useSettledAnswer } from './useDebounced';
import { readGroceryLists } from './reads';
import { useRevalidate } from './revalidate';

export type GroceryList = Schemas['GroceryListDto'];
export type GroceryItem = Schemas['GroceryItemDto'];
export type ListInput = Schemas['ListInput'];
export type ListDraft = Schemas['ListDraft'];

export type ListEstimate = Schemas['ListEstimate'];

/**
 * Items being written, estimated by the server exactly as a saved list is (one total on the
 * form and the card), each with the category a shopper would look for it under. Asked again a
 * moment after typing stops. `current` is the answer for exactly these items, or null while
 * it is on its way.
 */
export function useEstimate(items: readonly { name: string; quantity: string }[]): {
  current: ListEstimate | null;
} {
  const wanted = JSON.stringify(items.map((i) => [i.name.trim(), i.quantity.trim()]));
  const current = useSettledAnswer(wanted, keys.groceryEstimate, (asked) =>
    unwrap(
      api.POST('/grocery-lists/estimate', {
        body: {
          items: (JSON.parse(asked) as [string, string][]).map(([name, quantity]) => ({
            name,
            quantity,
          })),
        },
      }),
      i18n.t('grocery.error.fetch'),
    ),
  );
  return { current };
}

/** The family's grocery lists, newest first. */
export function useGroceryLists() {
  return useSWR(keys.groceryLists(), readGroceryLists);
}

export function useGroceryList(id: string) {
  return useSWR(keys.groceryList(id), () =>
    unwrap(
      api.GET('/grocery-lists/{id}', { params: { path: { id } } }),
      i18n.t('grocery.error.fetch'),
    ),
  );
}

/** Puts a list as the server answered it into every cached view of it, without a refetch. */
export function useShowList() {
  const { mutate } = useSWRConfig();
  return useCallback(
    (list: GroceryList) => {
      void mutate(
        keys.groceryLists(),
        (lists: GroceryList[] | undefined) => lists?.map((l) => (l.id === list.id ? list : l)),
        { revalidate: false },
      );
      void mutate(keys.groceryList(list.id), list, { revalidate: false });
    },
    [mutate],
  );
}

/** Create, update, delete, and drafts from recipes or the meal plan. */
export function useGroceryActions() {
  const revalidate = useRevalidate();
  return {
    create: async (input: ListInput, signal?: AbortSignal) => {
      const list = await unwrap(
        api.POST('/grocery-lists', { body: input, signal }),
        i18n.t('grocery.error.save'),
      );
      await revalidate(['groceryLists']);
      return list;
    },
    /** `input.version` is the version the edit started from; a stale one fails with 409. */
    update: async (id: string, input: ListInput, signal?: AbortSignal) => {
      try {
        const list = await unwrap(
          api.PUT('/grocery-lists/{id}', { params: { path: { id } }, body: input, signal }),
          i18n.t('grocery.error.update'),
        );
        await revalidate(['groceryLists', keys.groceryList(id)]);
        return list;
      } catch (err) {
        if (err instanceof ApiFailure && err.status === 409) void revalidate(['groceryLists']);
        throw err;
      }
    },
    remove: async (id: string) => {
      await unwrap(
        api.DELETE('/grocery-lists/{id}', { params: { path: { id } } }),
        i18n.t('grocery.error.delete'),
      );
      await revalidate(['groceryLists']);
    },
    fromRecipes: (recipeIds: string[]) =>
      unwrap(
        api.POST('/grocery-lists/from-recipes', { body: { recipeIds } }),
        i18n.t('grocery.error.save'),
      ),
  };
}

/** Where a list's export downloads from. */
export function exportUrl(id: string, format: 'txt' | 'csv' | 'md'): string {
  return `/api/grocery-lists/${encodeURIComponent(id)}/export?format=${format}`;
}
