import useSWR from 'swr';

import { ApiFailure, api, unwrap, type Schemas } from '../api/client';
import { FAMILY_NOUNS, keys } from './keys';
import { useRevalidate } from './revalidate';

export type Family = Schemas['FamilyDto'];
export type Member = Schemas['Member'];
export type CreatedInvite = Schemas['CreatedInvite'];
export type FamilySettings = Schemas['FamilySettingsDto'];
export type AllergenList = FamilySettings['allergenList'];

/** The family's members and open invite links. */
export function useFamily() {
  return useSWR(keys.family(), () => unwrap(api.GET('/family'), 'Error fetching family'));
}

/** The settings the whole family shares (the defaults, at version 0, until first saved). */
export function useFamilySettings() {
  return useSWR(keys.familySettings(), () =>
    unwrap(api.GET('/family/settings'), 'Error fetching settings'),
  );
}

/** What an invite link is for; `error.status` is 404 (unknown or used) or 410 (expired). */
export function useInvitePreview(token: string) {
  return useSWR<Schemas['InvitePreview'], ApiFailure>(keys.invitePreview(token), () =>
    unwrap(api.GET('/family/join/{token}', { params: { path: { token } } }), 'Invite failed'),
  );
}

/** Invite, revoke, leave and remove; each revalidates what it changed. */
export function useFamilyActions() {
  const revalidate = useRevalidate();
  return {
    invite: async (signal?: AbortSignal) => {
      const made = await unwrap(api.POST('/family/invites', { signal }), 'Invite failed');
      await revalidate(['family']);
      return made;
    },
    revoke: async (id: string, signal?: AbortSignal) => {
      await unwrap(
        api.DELETE('/family/invites/{id}', { params: { path: { id } }, signal }),
        'Revoke failed',
      );
      await revalidate(['family']);
    },
    /** The account stays, in a new empty family: every family screen changes. */
    leave: async (signal?: AbortSignal) => {
      await unwrap(api.POST('/family/leave', { signal }), 'Leave failed');
      await revalidate(FAMILY_NOUNS);
    },
    /** A new allergen list changes every child's introduction. */
    saveSettings: async (body: Schemas['FamilySettingsUpdate'], signal?: AbortSignal) => {
      const saved = await unwrap(
        api.PUT('/family/settings', { body, signal }),
        'Settings not saved',
      );
      await revalidate(['familySettings', 'allergens']);
      return saved;
    },
    /** After a save refused as stale: the settings as they are now. */
    reloadSettings: () => revalidate(['familySettings']),
    remove: async (id: string, signal?: AbortSignal) => {
      await unwrap(
        api.DELETE('/family/members/{id}', { params: { path: { id } }, signal }),
        'Remove failed',
      );
      await revalidate(['family']);
    },
  };
}
