import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import useSWR from 'swr';

import { api, unwrap } from '../api/client';
import { useAuth } from '../auth/auth-context';
import { AuthCard } from '../components/AuthCard';
import { Field } from '../components/ui/Field';
import { Spinner } from '../components/ui/Spinner';
import { useToast } from '../components/ui/toast-context';
import { keys } from '../hooks/keys';
import { useFailure } from '../hooks/useFailure';
import { checkPassword } from '../lib/validation';
import { routes } from '../routes';

export default function ResetPassword() {
  const { token = '' } = useParams();
  const { resetPassword } = useAuth();
  const { toast } = useToast();
  const fail = useFailure();
  const navigate = useNavigate();
  const link = useSWR(keys.resetLink(token), () =>
    unwrap(api.GET('/auth/reset-password/{token}', { params: { path: { token } } }), 'Error'),
  );
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = checkPassword(password);
    if (problem) {
      fail(problem, 'Password reset failed');
      return;
    }
    if (password !== confirm) {
      setMismatch(true);
      return;
    }
    setBusy(true);
    try {
      await resetPassword(token, password);
      toast({
        variant: 'success',
        title: 'Password updated',
        description: 'You are signed in with your new password.',
      });
      navigate(routes.dashboard, { replace: true });
    } catch (err) {
      fail(err, 'Password reset failed');
      setBusy(false);
    }
  }

  if (link.isLoading) return <Spinner />;
  if (link.error || !link.data) {
    return (
      <AuthCard title="Reset password">
        <p>
          This password reset link is invalid or has expired. Ask the person who runs this server
          for a new one.
        </p>
        <Link to={routes.login} className="btn btn-primary">
          Back to Log In
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Choose a new password"
      subtitle={`Hi ${link.data.firstName}, this also signs you out everywhere else.`}
    >
      <form className="space-y-4" onSubmit={submit} noValidate>
        <Field label="New password" hint="At least 8 characters">
          {(p) => (
            <input
              {...p}
              type="password"
              className="input input-bordered w-full"
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
          )}
        </Field>
        <Field label="Confirm new password" error={mismatch ? 'Passwords do not match' : undefined}>
          {(p) => (
            <input
              {...p}
              type="password"
              className="input input-bordered w-full"
              autoComplete="new-password"
              value={confirm}
              onChange={(e) => {
                setConfirm(e.target.value);
                setMismatch(false);
              }}
            />
          )}
        </Field>
        <button type="submit" className="btn btn-primary w-full" disabled={busy}>
          {busy ? 'Saving...' : 'Set New Password'}
        </button>
      </form>
    </AuthCard>
  );
}
