import { KeyRound } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';

import { api, unwrap } from '../api/client';
import { AuthCard } from '../components/AuthCard';
import { Field } from '../components/ui/Field';
import { useFailure } from '../hooks/useFailure';
import { routes } from '../routes';

export default function ForgotPassword() {
  const fail = useFailure();
  const [email, setEmail] = useState('');
  const [answer, setAnswer] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const notice = await unwrap(
        api.POST('/auth/forgot-password', { body: { email: email.trim() } }),
        'Error',
      );
      setAnswer(notice.message);
    } catch (err) {
      fail(err, 'Error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <AuthCard
      title="Forgot password?"
      subtitle="Highchair runs on your family's own server and does not send e-mail."
    >
      <div className="flex gap-3 rounded-box bg-base-200 p-4">
        <KeyRound aria-hidden className="mt-1 shrink-0 text-primary" />
        <p>
          The person who runs this server can reset your password. They run{' '}
          <code className="rounded bg-base-300 px-1">highchair user reset-password your@email</code>{' '}
          and give you a link that lets you choose a new password. The link works once, for one
          hour.
        </p>
      </div>
      {answer ? (
        <p role="status" className="text-base-content/80">
          {answer}
        </p>
      ) : (
        <form className="space-y-4" onSubmit={submit} noValidate>
          <Field label="Email">
            {(p) => (
              <input
                {...p}
                type="email"
                className="input input-bordered w-full"
                autoComplete="email"
                value={email}
                onChange={(e) => setEmail(e.target.value)}
              />
            )}
          </Field>
          <button type="submit" className="btn btn-outline w-full" disabled={busy}>
            {busy ? 'Sending...' : 'I need a reset'}
          </button>
        </form>
      )}
      <Link to={routes.login} className="link link-primary text-center text-sm">
        Back to Log In
      </Link>
    </AuthCard>
  );
}
