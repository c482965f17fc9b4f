import { Camera, LogOut } from 'lucide-react';
import { useRef, useState } from 'react';

import { savedElsewhere } from '../api/client';
import { greetingName, useAuth, type User } from '../auth/auth-context';
import { FamilyMembers } from '../components/family/FamilyMembers';
import { FamilySettings } from '../components/family/FamilySettings';
import { Button } from '../components/ui/Button';
import { Input } from '../components/ui/Input';
import { SavedElsewhere, type SavedValue } from '../components/ui/SavedElsewhere';
import { useToast } from '../components/ui/toast-context';
import { useDraft } from '../hooks/useDraft';
import { useProfileActions } from '../hooks/useProfile';
import { useSignOut } from '../hooks/useSignOut';
import { useSubmit } from '../hooks/useSubmit';
import { initial } from '../lib/text';

const ROLE_LABELS: Record<User['role'], string> = { mom: 'Mom', dad: 'Dad', guest: 'Guest' };

const namesOf = (user: User | undefined) => ({
  firstName: user?.firstName ?? '',
  lastName: user?.lastName ?? '',
});

/** The saved names that differ from the typed ones. */
function differences(saved: User, typed: ReturnType<typeof namesOf>): SavedValue[] {
  const out: SavedValue[] = [];
  if (saved.firstName !== typed.firstName)
    out.push({ label: 'First name', value: saved.firstName });
  if (saved.lastName !== typed.lastName) out.push({ label: 'Last name', value: saved.lastName });
  return out;
}

export default function Profile() {
  const { state } = useAuth();
  // RequireAuth guarantees a user here.
  return state.user ? <ProfileForm user={state.user} /> : null;
}

function ProfileForm({ user }: { user: User }) {
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
      failureTitle: 'Upload failed',
      onSuccess: () => toast({ variant: 'success', title: 'Avatar updated' }),
    },
  );

  const save = useSubmit((signal) => update({ ...values, version: draft.version }, signal), {
    failureTitle: 'Update failed',
    onSuccess: (saved) => {
      setConflict(null);
      draft.adopt(saved);
      toast({ variant: 'success', title: 'Profile updated' });
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
      <h1 className="text-3xl font-bold">Profile</h1>
      <div className="mt-6 flex items-center gap-4">
        {user.avatarUrl ? (
          <img
            src={user.avatarUrl}
            alt="Profile picture"
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
          <Camera aria-hidden size={18} /> {upload.busy ? 'Uploading...' : 'Change Picture'}
          <input
            type="file"
            accept="image/*"
            className="sr-only"
            aria-label="Profile picture"
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
              label="First name"
              error={save.fieldErrors.firstName}
              autoComplete="given-name"
              // A guest's stored name carries an internal prefix; they see their own name.
              value={guest ? greetingName(user) : values.firstName}
              readOnly={guest}
              disabled={guest}
              onChange={(e) => set('firstName', e.target.value)}
            />
            <Input
              label="Last name"
              error={save.fieldErrors.lastName}
              autoComplete="family-name"
              value={values.lastName}
              readOnly={guest}
              disabled={guest}
              onChange={(e) => set('lastName', e.target.value)}
            />
          </div>
          <Input
            label="Email"
            hint={
              guest
                ? 'Guest accounts have no e-mail address. Sign up to keep your family’s meals.'
                : 'Your e-mail address cannot be changed.'
            }
            value={guest ? 'Guest' : user.email}
            readOnly
            disabled
          />
          <p className="text-sm text-base-content/70">
            Role: <span className="badge badge-outline">{ROLE_LABELS[user.role]}</span>
          </p>
          <div className="card-actions justify-between">
            <Button variant="outline" onClick={() => void signOut()}>
              <LogOut aria-hidden size={18} /> Sign Out
            </Button>
            {guest ? null : (
              <Button type="submit" busy={save.busy} busyLabel="Saving...">
                Save Changes
              </Button>
            )}
          </div>
        </div>
      </form>
      {/* Guests stay single-member families. */}
      {user.isGuest ? null : <FamilyMembers />}
      <FamilySettings />
    </section>
  );
}
