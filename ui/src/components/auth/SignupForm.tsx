import { useState } from 'react';
import { Link } from 'react-router-dom';

import type { SignupForm as SignupValues, User } from '../../auth/auth-context';
import { useSubmit } from '../../hooks/useSubmit';
import { checkSignup } from '../../lib/validation';
import { routes } from '../../routes';
import { Button } from '../ui/Button';
import { Input, Select } from '../ui/Input';

const empty: SignupValues = {
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  role: 'mom',
  acceptTerms: false,
};

interface SignupFormProps {
  /** Creates the account (and signs it in). */
  create: (values: SignupValues) => Promise<User>;
  onCreated: (user: User) => void;
  submitLabel: string;
}

/** The sign-up fields and their checks: the sign-up page and an invite link share them. */
export function SignupForm({ create, onCreated, submitLabel }: SignupFormProps) {
  const [form, setForm] = useState<SignupValues>(empty);
  const submit = useSubmit(() => create({ ...form, email: form.email.trim() }), {
    failureTitle: 'Sign up failed',
    check: () => checkSignup(form),
    onSuccess: onCreated,
  });
  // The toast says what is wrong; the field it is about is marked.
  const invalid = (key: keyof SignupValues) => submit.fieldErrors[key] !== undefined;

  const set = <K extends keyof SignupValues>(key: K, value: SignupValues[K]) => {
    setForm((f) => ({ ...f, [key]: value }));
    submit.clearFieldError(key);
  };

  const text = (
    key: 'firstName' | 'lastName' | 'email',
    label: string,
    type: string,
    autoComplete: string,
  ) => (
    <Input
      label={label}
      error={submit.fieldErrors[key]}
      type={type}
      autoComplete={autoComplete}
      value={form[key]}
      onChange={(e) => set(key, e.target.value)}
      required
    />
  );

  return (
    <form className="space-y-4" onSubmit={submit.onSubmit} noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        {text('firstName', 'First name', 'text', 'given-name')}
        {text('lastName', 'Last name', 'text', 'family-name')}
      </div>
      {text('email', 'Email', 'email', 'email')}
      <Input
        label="Password"
        hint="At least 8 characters"
        error={submit.fieldErrors.password}
        type="password"
        autoComplete="new-password"
        value={form.password}
        onChange={(e) => set('password', e.target.value)}
        required
      />
      <Select
        label="I am a"
        value={form.role}
        onChange={(e) => set('role', e.target.value as SignupValues['role'])}
      >
        <option value="mom">Mom</option>
        <option value="dad">Dad</option>
      </Select>
      <label className="flex cursor-pointer items-start gap-3 text-sm">
        <input
          type="checkbox"
          // Square: the theme's round selectors made it look like a radio button.
          className="checkbox checkbox-primary mt-0.5 [--radius-selector:0.25rem]"
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
        {submitLabel}
      </Button>
    </form>
  );
}
