import i18n from 'i18next';
import useSWR from 'swr';

import { ApiFailure, api, unwrap, type Schemas } from '../api/client';
import { isPin } from '../lib/coParents';
import { keys } from './keys';
import { useRevalidate } from './revalidate';

export type CoParent = Schemas['CoParentDto'];
export type CoParentInput = Schemas['InviteCoParentRequest'];
/** A new co-parent with the link and the PIN: the only time the PIN is ever shown. */
export type InvitedCoParent = Schemas['InvitedCoParent'];
/** A new PIN for a co-parent: shown once too. */
export type NewPin = Schemas['NewPin'];

/** The spec's toast titles (section 8), in the language shown now. */
export const coParentTitles = {
  fetch: () => i18n.t('coParents.titles.fetch'),
  invite: () => i18n.t('coParents.titles.invite'),
  pin: () => i18n.t('coParents.titles.pin'),
  remove: () => i18n.t('coParents.titles.remove'),
  extend: () => i18n.t('coParents.titles.extend'),
};

/**
 * `unwrap`, with the spec's description for a server that could not be reached or failed
 * (`unreachable`: 'Unable to send invitation'); refusals (4xx) keep the server's own texts.
 */
async function call<T>(
  request: Promise<{ data?: T; error?: unknown; response: Response }>,
  title: string,
  unreachable: string,
): Promise<T> {
  try {
    return await unwrap(request, title);
  } catch (err) {
    if (err instanceof ApiFailure && (err.status === 0 || err.status >= 500)) {
      throw new ApiFailure(err.status, { title, message: unreachable }, title, err.body);
    }
    throw err;
  }
}

/** The answer was a success but not what the API promises: no six-digit PIN, or no link. */
function invalidResponse(title: string): ApiFailure {
  return new ApiFailure(0, { title, message: i18n.t('coParents.invalidResponse') }, title);
}

/**
 * The family's co-parents, newest first. Nothing is fetched while `enabled` is false (the
 * dialog closed, or a guest, who has none).
 */
export function useCoParents(enabled = true) {
  return useSWR(enabled ? keys.coParents() : null, () =>
    call(api.GET('/co-parents'), coParentTitles.fetch(), i18n.t('coParents.unreachable.fetch')),
  );
}

/** Invite, new PIN, extend and remove; each revalidates the list. */
export function useCoParentActions() {
  const revalidate = useRevalidate();
  return {
    invite: async (input: CoParentInput, signal?: AbortSignal): Promise<InvitedCoParent> => {
      const made = await call(
        api.POST('/co-parents', { body: input, signal }),
        coParentTitles.invite(),
        i18n.t('coParents.unreachable.invite'),
      );
      if (!made || !isPin(made.pin) || !made.link || !made.coParent) {
        throw invalidResponse(coParentTitles.invite());
      }
      await revalidate(['coParents']);
      return made;
    },
    /** Generate PIN or Reset PIN: the old PIN stops working and the co-parent's sessions end. */
    resetPin: async (id: string, signal?: AbortSignal): Promise<NewPin> => {
      const made = await call(
        api.POST('/co-parents/{id}/pin', { params: { path: { id } }, signal }),
        coParentTitles.pin(),
        i18n.t('coParents.unreachable.pin'),
      );
      if (!made || !isPin(made.pin)) throw invalidResponse(coParentTitles.pin());
      await revalidate(['coParents']);
      return made;
    },
    /** Seven more days, from the later of now and the current expiry. */
    extend: async (id: string, signal?: AbortSignal): Promise<CoParent> => {
      const extended = await call(
        api.POST('/co-parents/{id}/extend', { params: { path: { id } }, signal }),
        coParentTitles.extend(),
        i18n.t('common.unexpectedError'),
      );
      await revalidate(['coParents']);
      return extended;
    },
    /** The link and every session of it stop working at once. */
    remove: async (id: string, signal?: AbortSignal): Promise<void> => {
      await call(
        api.DELETE('/co-parents/{id}', { params: { path: { id } }, signal }),
        coParentTitles.remove(),
        i18n.t('common.unexpectedError'),
      );
      await revalidate(['coParents']);
    },
  };
}
