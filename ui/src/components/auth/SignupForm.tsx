import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import type { SignupForm as SignupValues, User } from '../../auth/auth-context';
import { useSubmit } from '../../hooks/useSubmit';
import { PASSWORD_MIN, checkSignup } from '../../lib/validation';
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
  const { t } = useTranslation();
  const [form, setForm] = useState<SignupValues>(empty);
  const submit = useSubmit(() => create({ ...form, email: form.email.trim() }), {
    failureTitle: t('auth.failed.signUp'),
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
  const firstName = text('firstName', t('auth.fields.firstName'), 'text', 'given-name');
  const lastName = text('lastName', t('auth.fields.lastName'), 'text', 'family-name');
  const email = text('email', t('auth.fields.email'), 'email', 'email');

  return (
    <form className="space-y-4" onSubmit={submit.onSubmit} noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        {firstName}
        {lastName}
      </div>
      {email}
      <Input
        label={t('auth.fields.password')}
        hint={t('auth.fields.passwordHint', { min: PASSWORD_MIN })}
        error={submit.fieldErrors.password}
        type="password"
        autoComplete="new-password"
        value={form.password}
        onChange={(e) => set('password', e.target.value)}
        required
      />
      <Select
        label={t('auth.fields.role')}
        value={form.role}
        onChange={(e) => set('role', e.target.value as SignupValues['role'])}
      >
        <option value="mom">{t('auth.role.mom')}</option>
        <option value="dad">{t('auth.role.dad')}</option>
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
          <Trans
            i18nKey="auth.fields.acceptTerms"
            components={{
              terms: <Link to={routes.terms} className="link link-primary" />,
              privacy: <Link to={routes.privacy} className="link link-primary" />,
            }}
          />
        </span>
      </label>
      <Button type="submit" block busy={submit.busy} busyLabel={t('auth.signup.creating')}>
        {submitLabel}
      </Button>
    </form>
  );
}
