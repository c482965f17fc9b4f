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
        const user = await unwrap(api.PATCH('/profile', { body: input, signal }), 'Update failed');
        updateUser(user);
        return user;
      } catch (err) {
        // Changed elsewhere: show the profile as saved now (the signed-in user is the session's).
        if (err instanceof ApiFailure && err.status === 409) void revalidate(['session']);
        throw err;
      }
    },
    setAvatar: async (file: Blob, signal?: AbortSignal) => {
      const user = await uploadImage('/profile/avatar', file, 'Upload failed', signal);
      updateUser(user);
      return user;
    },
  };
}
