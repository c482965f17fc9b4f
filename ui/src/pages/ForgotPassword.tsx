import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router-dom';

import { api, unwrap } from '../api/client';
import { AuthCard } from '../components/auth/AuthCard';
import { Button } from '../components/ui/Button';
import { Input } from '../components/ui/Input';
import { useSubmit } from '../hooks/useSubmit';
import { routes } from '../routes';

export default function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [answer, setAnswer] = useState<string | null>(null);
  const submit = useSubmit(
    (signal) =>
      unwrap(api.POST('/auth/forgot-password', { body: { email: email.trim() }, signal }), 'Error'),
    { failureTitle: 'Error', onSuccess: (notice) => setAnswer(notice.message) },
  );

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
        <form className="space-y-4" onSubmit={submit.onSubmit} noValidate>
          <Input
            label="Email"
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <Button type="submit" variant="outline" block busy={submit.busy} busyLabel="Sending...">
            I need a reset
          </Button>
        </form>
      )}
      <Link to={routes.login} className="link link-primary text-center text-sm">
        Back to Log In
      </Link>
    </AuthCard>
  );
}
