import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';

import { useAuth } from '../auth/auth-context';
import { AuthCard } from '../components/AuthCard';
import { Field } from '../components/ui/Field';
import { useToast } from '../components/ui/toast-context';
import { useFailure } from '../hooks/useFailure';
import { checkLogin } from '../lib/validation';
import { afterSignIn } from '../router/guards';
import { routes } from '../routes';

export default function Login() {
  const { login } = useAuth();
  const { toast } = useToast();
  const fail = useFailure();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = checkLogin(email, password);
    if (problem) {
      fail(problem, 'Sign in failed');
      return;
    }
    setBusy(true);
    try {
      await login(email.trim(), password);
      toast({
        variant: 'success',
        title: 'Welcome back!',
        description: 'You have successfully signed in',
      });
      navigate(afterSignIn(location.state), { replace: true });
    } catch (err) {
      fail(err, 'Sign in failed');
      setBusy(false);
    }
  }

  return (
    <AuthCard title="Log In" subtitle="Welcome back to Highchair.">
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
              required
            />
          )}
        </Field>
        <Field label="Password">
          {(p) => (
            <input
              {...p}
              type="password"
              className="input input-bordered w-full"
              autoComplete="current-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
              required
            />
          )}
        </Field>
        <div className="text-right text-sm">
          <Link to={routes.forgotPassword} className="link link-primary">
            Forgot password?
          </Link>
        </div>
        <button type="submit" className="btn btn-primary w-full" disabled={busy}>
          {busy ? 'Signing In...' : 'Log In'}
        </button>
      </form>
      <div className="divider my-0 text-sm">or</div>
      <p className="text-center text-sm">
        New here?{' '}
        <Link to={routes.signup} className="link link-primary">
          Sign Up
        </Link>{' '}
        or{' '}
        <Link to={routes.guest} className="link link-primary">
          Continue as Guest
        </Link>
      </p>
    </AuthCard>
  );
}
