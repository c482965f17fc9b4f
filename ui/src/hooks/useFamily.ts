import i18n from 'i18next';
import useSWR from 'swr';

import { ApiFailure, api, unwrap, type Schemas } from '../api/client';
import { FAMILY_NOUNS, keys } from './keys';
import { useRevalidate } from './revalidate';

export type Family = Schemas['FamilyDto'];
export type Member = Schemas['Member'];
export type CreatedInvite = Schemas['CreatedInvite'];
export type FamilySettings = Schemas['FamilySettingsDto'];
export type AllergenList = FamilySettings['allergenList'];

/** Each role's catalogue key (the API's values stay English). */
const ROLE_KEYS: Record<string, string | undefined> = {
  mom: 'family.role.mom',
  dad: 'family.role.dad',
  guest: 'family.role.guest',
};

/** A member's role in the chosen language ("Mom"); an unknown one as it is. */
export function roleLabel(role: string): string {
  const key = ROLE_KEYS[role];
  return key ? i18n.t(key) : role;
}

/** The family's members and open invite links. */
export function useFamily() {
  return useSWR(keys.family(), () =>
    unwrap(api.GET('/family'), i18n.t('family.errors.fetchFamily')),
  );
}

/** The settings the whole family shares (the defaults, at version 0, until first saved). */
export function useFamilySettings() {
  return useSWR(keys.familySettings(), () =>
    unwrap(api.GET('/family/settings'), i18n.t('family.errors.fetchSettings')),
  );
}

/** What an invite link is for; `error.status` is 404 (unknown or used) or 410 (expired). */
export function useInvitePreview(token: string) {
  return useSWR<Schemas['InvitePreview'], ApiFailure>(keys.invitePreview(token), () =>
    unwrap(
      api.GET('/family/join/{token}', { params: { path: { token } } }),
      i18n.t('family.errors.invite'),
    ),
  );
}

/** Invite, revoke, leave and remove; each revalidates what it changed. */
export function useFamilyActions() {
  const revalidate = useRevalidate();
  return {
    invite: async (signal?: AbortSignal) => {
      const made = await unwrap(
        api.POST('/family/invites', { signal }),
        i18n.t('family.errors.invite'),
      );
      await revalidate(['family']);
      return made;
    },
    revoke: async (id: string, signal?: AbortSignal) => {
      await unwrap(
        api.DELETE('/family/invites/{id}', { params: { path: { id } }, signal }),
        i18n.t('family.errors.revoke'),
      );
      await revalidate(['family']);
    },
    /** The account stays, in a new empty family: every family screen changes. */
    leave: async (signal?: AbortSignal) => {
      await unwrap(api.POST('/family/leave', { signal }), i18n.t('family.errors.leave'));
      await revalidate(FAMILY_NOUNS);
    },
    /** A new allergen list changes every child's introduction. */
    saveSettings: async (body: Schemas['FamilySettingsUpdate'], signal?: AbortSignal) => {
      const saved = await unwrap(
        api.PUT('/family/settings', { body, signal }),
        i18n.t('family.errors.saveSettings'),
      );
      await revalidate(['familySettings', 'allergens']);
      return saved;
    },
    /** After a save refused as stale: the settings as they are now. */
    reloadSettings: () => revalidate(['familySettings']),
    remove: async (id: string, signal?: AbortSignal) => {
      await unwrap(
        api.DELETE('/family/members/{id}', { params: { path: { id } }, signal }),
        i18n.t('family.errors.remove'),
      );
      await revalidate(['family']);
    },
  };
}
