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

// The spec's toast titles (section 8).
export const FETCH_TITLE = 'Error fetching co-parents';
export const INVITE_TITLE = 'Error inviting co-parent';
export const PIN_TITLE = 'Error generating PIN';
export const DELETE_TITLE = 'Error deleting co-parent';
export const EXTEND_TITLE = 'Error extending link';

const INVALID_RESPONSE = 'Invalid response from server';

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
  return new ApiFailure(0, { title, message: INVALID_RESPONSE }, title);
}

/**
 * The family's co-parents, newest first. Nothing is fetched while `enabled` is false (the
 * dialog closed, or a guest, who has none).
 */
export function useCoParents(enabled = true) {
  return useSWR(enabled ? keys.coParents() : null, () =>
    call(api.GET('/co-parents'), FETCH_TITLE, 'Unable to load co-parent information'),
  );
}

/** Invite, new PIN, extend and remove; each revalidates the list. */
export function useCoParentActions() {
  const revalidate = useRevalidate();
  return {
    invite: async (input: CoParentInput, signal?: AbortSignal): Promise<InvitedCoParent> => {
      const made = await call(
        api.POST('/co-parents', { body: input, signal }),
        INVITE_TITLE,
        'Unable to send invitation',
      );
      if (!made || !isPin(made.pin) || !made.link || !made.coParent) {
        throw invalidResponse(INVITE_TITLE);
      }
      await revalidate(['coParents']);
      return made;
    },
    /** Generate PIN or Reset PIN: the old PIN stops working and the co-parent's sessions end. */
    resetPin: async (id: string, signal?: AbortSignal): Promise<NewPin> => {
      const made = await call(
        api.POST('/co-parents/{id}/pin', { params: { path: { id } }, signal }),
        PIN_TITLE,
        'Unable to generate new PIN',
      );
      if (!made || !isPin(made.pin)) throw invalidResponse(PIN_TITLE);
      await revalidate(['coParents']);
      return made;
    },
    /** Seven more days, from the later of now and the current expiry. */
    extend: async (id: string, signal?: AbortSignal): Promise<CoParent> => {
      const extended = await call(
        api.POST('/co-parents/{id}/extend', { params: { path: { id } }, signal }),
        EXTEND_TITLE,
        'An unexpected error occurred',
      );
      await revalidate(['coParents']);
      return extended;
    },
    /** The link and every session of it stop working at once. */
    remove: async (id: string, signal?: AbortSignal): Promise<void> => {
      await call(
        api.DELETE('/co-parents/{id}', { params: { path: { id } }, signal }),
        DELETE_TITLE,
        'An unexpected error occurred',
      );
      await revalidate(['coParents']);
    },
  };
}
