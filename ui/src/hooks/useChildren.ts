import { useMemo } from 'react';
import useSWR, { useSWRConfig } from 'swr';

import { api, unwrap, type Schemas } from '../api/client';
import { keys } from './keys';

export type Child = Schemas['ChildDto'];
export type ChildInput = Schemas['ChildRequest'];

/** The family's children, by name. Failures keep an empty list (spec section 8). */
export function useChildren() {
  return useSWR(keys.children(), () => unwrap(api.GET('/children'), 'Error fetching children'));
}

/** Child names by id, for meal cards; a meal whose child is gone finds no name. */
export function useChildNames(children: Child[] | undefined): Map<string, string> {
  return useMemo(() => new Map(children?.map((c) => [c.id, c.name])), [children]);
}

/** Create, update and delete, each refreshing the lists they change. */
export function useChildActions() {
  const { mutate } = useSWRConfig();
  // Meal lists reload when their screen opens; deleting a child happens on the children page.
  const refresh = () => mutate(keys.children());
  return {
    create: async (input: ChildInput) => {
      const child = await unwrap(
        api.POST('/children', { body: input }),
        'Error saving child profile',
      );
      await refresh();
      return child;
    },
    update: async (id: string, input: ChildInput) => {
      const child = await unwrap(
        api.PUT('/children/{id}', { params: { path: { id } }, body: input }),
        'Error updating child profile',
      );
      await refresh();
      return child;
    },
    remove: async (id: string) => {
      await unwrap(
        api.DELETE('/children/{id}', { params: { path: { id } } }),
        'Error deleting child',
      );
      await refresh();
    },
  };
}
