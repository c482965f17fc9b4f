import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';

import { useAuth, type SignupForm } from '../auth/auth-context';
import { AuthCard } from '../components/AuthCard';
import { Button } from '../components/ui/Button';
import { Input, Select } from '../components/ui/Input';
import { Spinner } from '../components/ui/Spinner';
import { useToast } from '../components/ui/toast-context';
import { useSite } from '../hooks/useSite';
import { useSubmit } from '../hooks/useSubmit';
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
  const navigate = useNavigate();
  const { data: site, isLoading } = useSite();
  const [form, setForm] = useState<SignupForm>(empty);
  const submit = useSubmit(() => signup({ ...form, email: form.email.trim() }), {
    failureTitle: 'Sign up failed',
    check: () => checkSignup(form),
    onSuccess: (user) => {
      toast({
        variant: 'success',
        title: 'Account created',
        description: `Welcome to Highchair, ${user.firstName}!`,
      });
      navigate(routes.dashboard, { replace: true });
    },
  });
  // The toast says what is wrong; the field it is about is marked.
  const invalid = (key: keyof SignupForm) => submit.fieldErrors[key] !== undefined;

  const set = <K extends keyof SignupForm>(key: K, value: SignupForm[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    submit.clearFieldError(key);
  };

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
    <Input
      label={label}
      invalid={invalid(key)}
      type={type}
      autoComplete={autoComplete}
      value={form[key]}
      onChange={(e) => set(key, e.target.value)}
      required
    />
  );

  return (
    <AuthCard title="Sign Up" subtitle="Create your family's account.">
      <form className="space-y-4" onSubmit={submit.onSubmit} noValidate>
        <div className="grid gap-4 sm:grid-cols-2">
          {text('firstName', 'First name', 'text', 'given-name')}
          {text('lastName', 'Last name', 'text', 'family-name')}
        </div>
        {text('email', 'Email', 'email', 'email')}
        <Input
          label="Password"
          hint="At least 8 characters"
          invalid={invalid('password')}
          type="password"
          autoComplete="new-password"
          value={form.password}
          onChange={(e) => set('password', e.target.value)}
          required
        />
        <Select
          label="I am a"
          value={form.role}
          onChange={(e) => set('role', e.target.value as SignupForm['role'])}
        >
          <option value="mom">Mom</option>
          <option value="dad">Dad</option>
        </Select>
        <label className="flex cursor-pointer items-start gap-3 text-sm">
          <input
            type="checkbox"
            className="checkbox checkbox-primary mt-0.5"
            aria-invalid={invalid('acceptTerms')}
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
        <Button type="submit" block busy={submit.busy} busyLabel="Creating Account...">
          Create Account
        </Button>
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
