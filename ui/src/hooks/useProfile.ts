import i18n from 'i18next';

import { ApiFailure, api, unwrap, uploadImage, type Schemas } from '../api/client';
import { useAuth } from '../auth/auth-context';
import { useRevalidate } from './revalidate';

export type ProfileInput = Schemas['ProfileUpdate'];

/** Profile changes; each shows the saved profile everywhere (header greeting included). */
export function useProfileActions() {
  const { updateUser } = useAuth();
  const revalidate = useRevalidate();
  return {
    /** `input.version` is the version the edit started from; a stale one fails with 409. */
    update: async (input: ProfileInput, signal?: AbortSignal) => {
      try {
        const user = await unwrap(
          api.PATCH('/profile', { body: input, signal }),
          i18n.t('profile.errors.update'),
        );
        updateUser(user);
        return user;
      } catch (err) {
        // Changed elsewhere: show the profile as saved now (the signed-in user is the session's).
        if (err instanceof ApiFailure && err.status === 409) void revalidate(['session']);
        throw err;
      }
    },
    setAvatar: async (file: Blob, signal?: AbortSignal) => {
      const user = await uploadImage(
        // eslint-disable-next-line no-restricted-syntax -- the API path, not text
        '/profile/avatar',
        file,
        i18n.t('profile.errors.upload'),
        signal,
      );
      updateUser(user);
      return user;
    },
  };
}
