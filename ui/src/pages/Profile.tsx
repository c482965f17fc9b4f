import { Camera, LogOut } from 'lucide-react';
import i18n from 'i18next';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { savedElsewhere } from '../api/client';
import { greetingName, useAuth, type User } from '../auth/auth-context';
import { FamilyMembers } from '../components/family/FamilyMembers';
import { FamilySettings } from '../components/family/FamilySettings';
import { LanguageChoice } from '../components/profile/LanguageChoice';
import { Button } from '../components/ui/Button';
import { Input } from '../components/ui/Input';
import { SavedElsewhere, type SavedValue } from '../components/ui/SavedElsewhere';
import { useToast } from '../components/ui/toast-context';
import { useDraft } from '../hooks/useDraft';
import { roleLabel } from '../hooks/useFamily';
import { useProfileActions } from '../hooks/useProfile';
import { useSignOut } from '../hooks/useSignOut';
import { useSubmit } from '../hooks/useSubmit';
import { initial } from '../lib/text';

const namesOf = (user: User | undefined) => ({
  firstName: user?.firstName ?? '',
  lastName: user?.lastName ?? '',
});

/** The saved names that differ from the typed ones. */
function differences(saved: User, typed: ReturnType<typeof namesOf>): SavedValue[] {
  const out: SavedValue[] = [];
  if (saved.firstName !== typed.firstName)
    out.push({ label: i18n.t('profile.firstName'), value: saved.firstName });
  if (saved.lastName !== typed.lastName) {
    out.push({ label: i18n.t('profile.lastName'), value: saved.lastName });
  }
  return out;
}

export default function Profile() {
  const { state } = useAuth();
  // RequireAuth guarantees a user here.
  return state.user ? <ProfileForm user={state.user} /> : null;
}

function ProfileForm({ user }: { user: User }) {
  const { t } = useTranslation();
  const { update, setAvatar } = useProfileActions();
  const { toast } = useToast();
  const signOut = useSignOut();
  const draft = useDraft(user, namesOf);
  const { values, set } = draft;
  // The profile as saved elsewhere, after a save was refused for a stale version.
  const [conflict, setConflict] = useState<User | null>(null);
  const guest = user.isGuest;

  // The picture being uploaded, chosen in the file input.
  const picture = useRef<File | null>(null);
  const upload = useSubmit(
    async (signal) => (picture.current ? setAvatar(picture.current, signal) : undefined),
    {
      failureTitle: t('profile.errors.upload'),
      onSuccess: () => toast({ variant: 'success', title: t('profile.avatarUpdated') }),
    },
  );

  const save = useSubmit((signal) => update({ ...values, version: draft.version }, signal), {
    failureTitle: t('profile.errors.update'),
    onSuccess: (saved) => {
      setConflict(null);
      draft.adopt(saved);
      toast({ variant: 'success', title: t('profile.updated') });
    },
    onFailure: (err) => {
      const current = savedElsewhere(err, 'profile');
      if (current) {
        setConflict(current);
        draft.adopt(current);
      }
    },
  });

  return (
    <section className="mx-auto max-w-2xl px-4 py-10">
      <h1 className="text-3xl font-bold">{t('profile.title')}</h1>
      <div className="mt-6 flex items-center gap-4">
        {user.avatarUrl ? (
          <img
            src={user.avatarUrl}
            alt={t('profile.picture')}
            className="h-20 w-20 rounded-full object-cover"
          />
        ) : (
          <span
            className="flex h-20 w-20 items-center justify-center rounded-full bg-primary text-3xl font-bold text-primary-content"
            aria-hidden
          >
            {initial(user.firstName)}
          </span>
        )}
        <label className={`btn btn-outline ${upload.busy ? 'btn-disabled' : ''}`}>
          <Camera aria-hidden size={18} />{' '}
          {upload.busy ? t('profile.uploading') : t('profile.changePicture')}
          <input
            type="file"
            accept="image/*"
            className="sr-only"
            aria-label={t('profile.picture')}
            disabled={upload.busy}
            onChange={(e) => {
              picture.current = e.target.files?.[0] ?? null;
              if (picture.current) void upload.run();
            }}
          />
        </label>
      </div>
      <form
        className="card mt-6 border border-base-300 bg-base-100"
        onSubmit={save.onSubmit}
        noValidate
      >
        <div className="card-body gap-4">
          {conflict ? <SavedElsewhere values={differences(conflict, values)} /> : null}
          <div className="grid gap-4 sm:grid-cols-2">
            <Input
              label={t('profile.firstName')}
              error={save.fieldErrors.firstName}
              autoComplete="given-name"
              // A guest's stored name carries an internal prefix; they see their own name.
              value={guest ? greetingName(user) : values.firstName}
              readOnly={guest}
              disabled={guest}
              onChange={(e) => set('firstName', e.target.value)}
            />
            <Input
              label={t('profile.lastName')}
              error={save.fieldErrors.lastName}
              autoComplete="family-name"
              value={values.lastName}
              readOnly={guest}
              disabled={guest}
              onChange={(e) => set('lastName', e.target.value)}
            />
          </div>
          <Input
            label={t('profile.email')}
            hint={guest ? t('profile.guestEmailHint') : t('profile.emailHint')}
            value={guest ? t('profile.guestEmail') : user.email}
            readOnly
            disabled
          />
          <p className="text-sm text-base-content/70">
            {t('profile.role')} <span className="badge badge-outline">{roleLabel(user.role)}</span>
          </p>
          <div className="card-actions justify-between">
            <Button variant="outline" onClick={() => void signOut()}>
              <LogOut aria-hidden size={18} /> {t('profile.signOut')}
            </Button>
            {guest ? null : (
              <Button type="submit" busy={save.busy} busyLabel={t('profile.saving')}>
                {t('common.saveChanges')}
              </Button>
            )}
          </div>
        </div>
      </form>
      <LanguageChoice user={user} />
      {/* Guests stay single-member families. */}
      {user.isGuest ? null : <FamilyMembers />}
      <FamilySettings />
    </section>
  );
}
