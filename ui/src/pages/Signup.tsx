import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';

import { useAuth, type SignupForm } from '../auth/auth-context';
import { AuthCard } from '../components/AuthCard';
import { Field } from '../components/ui/Field';
import { Spinner } from '../components/ui/Spinner';
import { useToast } from '../components/ui/toast-context';
import { useFailure } from '../hooks/useFailure';
import { useSite } from '../hooks/useSite';
import { checkSignup } from '../lib/validation';
import { routes } from '../routes';

const empty: SignupForm = {
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  role: 'mom',
  acceptTerms: false,
};

export default function Signup() {
  const { signup } = useAuth();
  const { toast } = useToast();
  const fail = useFailure();
  const navigate = useNavigate();
  const { data: site, isLoading } = useSite();
  const [form, setForm] = useState<SignupForm>(empty);
  const [invalid, setInvalid] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);

  const set = <K extends keyof SignupForm>(key: K, value: SignupForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    if (invalid === key) setInvalid(undefined);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const problem = checkSignup(form);
    if (problem) {
      setInvalid(fail(problem, 'Sign up failed'));
      return;
    }
    setBusy(true);
    try {
      const user = await signup({ ...form, email: form.email.trim() });
      toast({
        variant: 'success',
        title: 'Account created',
        description: `Welcome to Highchair, ${user.firstName}!`,
      });
      navigate(routes.dashboard, { replace: true });
    } catch (err) {
      setInvalid(fail(err, 'Sign up failed'));
      setBusy(false);
    }
  }

  if (isLoading) return <Spinner />;
  if (site && !site.signupOpen) {
    return (
      <AuthCard title="Sign Up">
        <p>
          Sign-up is closed on this server. Ask the person who runs it to create an account for you.
        </p>
        <Link to={routes.login} className="btn btn-primary">
          Log In
        </Link>
      </AuthCard>
    );
  }

  const text = (
    key: 'firstName' | 'lastName' | 'email',
    label: string,
    type: string,
    autoComplete: string,
  ) => (
    <Field label={label}>
      {(p) => (
        <input
          {...p}
          aria-invalid={invalid === key}
          type={type}
          className="input input-bordered w-full"
          autoComplete={autoComplete}
          value={form[key]}
          onChange={(e) => set(key, e.target.value)}
          required
        />
      )}
    </Field>
  );

  return (
    <AuthCard title="Sign Up" subtitle="Create your family's account.">
      <form className="space-y-4" onSubmit={submit} noValidate>
        <div className="grid gap-4 sm:grid-cols-2">
          {text('firstName', 'First name', 'text', 'given-name')}
          {text('lastName', 'Last name', 'text', 'family-name')}
        </div>
        {text('email', 'Email', 'email', 'email')}
        <Field label="Password" hint="At least 8 characters">
          {(p) => (
            <input
              {...p}
              aria-invalid={invalid === 'password'}
              type="password"
              className="input input-bordered w-full"
              autoComplete="new-password"
              value={form.password}
              onChange={(e) => set('password', e.target.value)}
              required
            />
          )}
        </Field>
        <Field label="I am a">
          {(p) => (
            <select
              {...p}
              className="select select-bordered w-full"
              value={form.role}
              onChange={(e) => set('role', e.target.value as SignupForm['role'])}
            >
              <option value="mom">Mom</option>
              <option value="dad">Dad</option>
            </select>
          )}
        </Field>
        <label className="flex cursor-pointer items-start gap-3 text-sm">
          <input
            type="checkbox"
            className="checkbox checkbox-primary mt-0.5"
            aria-invalid={invalid === 'acceptTerms'}
            checked={form.acceptTerms}
            onChange={(e) => set('acceptTerms', e.target.checked)}
          />
          <span>
            I agree to the{' '}
            <Link to={routes.terms} className="link link-primary">
              Terms of Service
            </Link>{' '}
            and{' '}
            <Link to={routes.privacy} className="link link-primary">
              Privacy Policy
            </Link>
          </span>
        </label>
        <button type="submit" className="btn btn-primary w-full" disabled={busy}>
          {busy ? 'Creating Account...' : 'Create Account'}
        </button>
      </form>
      <p className="text-center text-sm">
        Already have an account?{' '}
        <Link to={routes.login} className="link link-primary">
          Log In
        </Link>
      </p>
    </AuthCard>
  );
}
