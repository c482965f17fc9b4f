import { Camera, LogOut } from 'lucide-react';
import { useState, type FormEvent } from 'react';

import { api, unwrap, uploadImage } from '../api/client';
import { useAuth, type User } from '../auth/auth-context';
import { Field } from '../components/ui/Field';
import { useToast } from '../components/ui/toast-context';
import { useFailure } from '../hooks/useFailure';
import { useSignOut } from '../hooks/useSignOut';

const ROLE_LABELS: Record<string, string> = { mom: 'Mom', dad: 'Dad', guest: 'Guest' };

export default function Profile() {
  const { state } = useAuth();
  // RequireAuth guarantees a user here.
  return state.user ? <ProfileForm user={state.user} /> : null;
}

function ProfileForm({ user }: { user: User }) {
  const { updateUser } = useAuth();
  const { toast } = useToast();
  const fail = useFailure();
  const signOut = useSignOut();
  const [firstName, setFirstName] = useState(user.firstName);
  const [lastName, setLastName] = useState(user.lastName);
  const [busy, setBusy] = useState(false);
  const [uploading, setUploading] = useState(false);

  async function changePicture(file: File | undefined) {
    if (!file) return;
    setUploading(true);
    try {
      const updated = await uploadImage<User>('/profile/avatar', file, 'Upload failed');
      updateUser(updated);
      toast({ variant: 'success', title: 'Avatar updated' });
    } catch (err) {
      fail(err, 'Upload failed');
    } finally {
      setUploading(false);
    }
  }

  async function save(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const updated = await unwrap(
        api.PATCH('/profile', { body: { firstName, lastName } }),
        'Update failed',
      );
      updateUser(updated);
      toast({ variant: 'success', title: 'Profile updated' });
    } catch (err) {
      fail(err, 'Update failed');
    } finally {
      setBusy(false);
    }
  }

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
            {user.firstName
              .replace(/^Guest_/, '')
              .charAt(0)
              .toUpperCase() || '?'}
          </span>
        )}
        <label className={`btn btn-outline ${uploading ? 'btn-disabled' : ''}`}>
          <Camera aria-hidden size={18} /> {uploading ? 'Uploading...' : 'Change Picture'}
          <input
            type="file"
            accept="image/*"
            className="sr-only"
            aria-label="Profile picture"
            disabled={uploading}
            onChange={(e) => void changePicture(e.target.files?.[0])}
          />
        </label>
      </div>
      <form className="card mt-6 border border-base-300 bg-base-100" onSubmit={save} noValidate>
        <div className="card-body gap-4">
          <div className="grid gap-4 sm:grid-cols-2">
            <Field label="First name">
              {(p) => (
                <input
                  {...p}
                  className="input input-bordered w-full"
                  autoComplete="given-name"
                  value={firstName}
                  onChange={(e) => setFirstName(e.target.value)}
                />
              )}
            </Field>
            <Field label="Last name">
              {(p) => (
                <input
                  {...p}
                  className="input input-bordered w-full"
                  autoComplete="family-name"
                  value={lastName}
                  onChange={(e) => setLastName(e.target.value)}
                />
              )}
            </Field>
          </div>
          <Field label="Email" hint="Your e-mail address cannot be changed.">
            {(p) => (
              <input
                {...p}
                className="input input-bordered w-full"
                value={user.email}
                readOnly
                disabled
              />
            )}
          </Field>
          <p className="text-sm text-base-content/70">
            Role: <span className="badge badge-outline">{ROLE_LABELS[user.role] ?? user.role}</span>
          </p>
          <div className="card-actions justify-between">
            <button type="button" className="btn btn-outline" onClick={() => void signOut()}>
              <LogOut aria-hidden size={18} /> Sign Out
            </button>
            <button type="submit" className="btn btn-primary" disabled={busy}>
              {busy ? 'Saving...' : 'Save Changes'}
            </button>
          </div>
        </div>
      </form>
    </section>
  );
}
