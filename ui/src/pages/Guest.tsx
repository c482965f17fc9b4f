import { Info } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';

import { useAuth } from '../auth/auth-context';
import { AuthCard } from '../components/AuthCard';
import { Field } from '../components/ui/Field';
import { useToast } from '../components/ui/toast-context';
import { useFailure } from '../hooks/useFailure';
import { useSite } from '../hooks/useSite';
import { checkGuest, guestChildren } from '../lib/validation';
import { routes } from '../routes';

export default function Guest() {
  const { startGuest } = useAuth();
  const { toast } = useToast();
  const fail = useFailure();
  const navigate = useNavigate();
  const { data: site } = useSite();
  const [firstName, setFirstName] = useState('');
  const [children, setChildren] = useState('1');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = checkGuest(firstName);
    if (problem) {
      fail(problem, 'Guest access failed');
      return;
    }
    setBusy(true);
    try {
      await startGuest(firstName.trim(), guestChildren(children));
      toast({
        variant: 'success',
        title: 'Welcome to Highchair!',
        description: "You're using the app as a guest",
      });
      navigate(routes.dashboard, { replace: true });
    } catch (err) {
      fail(err, 'Guest access failed');
      setBusy(false);
    }
  }

  if (site && !site.allowGuests) {
    return (
      <AuthCard title="Continue as Guest">
        <p>Guest access is turned off on this server.</p>
        <Link to={routes.signup} className="btn btn-primary">
          Sign Up
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Continue as Guest" subtitle="Try Highchair without creating an account.">
      <div role="note" className="alert alert-info alert-soft">
        <Info aria-hidden size={18} />
        <span>
          Guest access has limited features. Guest accounts unused for 30 days are removed.
        </span>
      </div>
      <form className="space-y-4" onSubmit={submit} noValidate>
        <Field label="First name">
          {(p) => (
            <input
              {...p}
              className="input input-bordered w-full"
              autoComplete="given-name"
              value={firstName}
              onChange={(e) => setFirstName(e.target.value)}
              required
            />
          )}
        </Field>
        <Field label="Number of children">
          {(p) => (
            <input
              {...p}
              type="number"
              min={1}
              max={10}
              inputMode="numeric"
              className="input input-bordered w-full"
              value={children}
              onChange={(e) => setChildren(e.target.value)}
            />
          )}
        </Field>
        <button type="submit" className="btn btn-primary w-full" disabled={busy}>
          {busy ? 'Starting...' : 'Continue as Guest'}
        </button>
      </form>
    </AuthCard>
  );
}
