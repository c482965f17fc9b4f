import { LogOut } from 'lucide-react';
import { useState, type FormEvent } from 'react';

import { api, unwrap } from '../api/client';
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
