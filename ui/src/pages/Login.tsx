import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router-dom';

import { useAuth } from '../auth/auth-context';
import { AuthCard } from '../components/auth/AuthCard';
import { Button } from '../components/ui/Button';
import { Input } from '../components/ui/Input';
import { useToast } from '../components/ui/toast-context';
import { useSubmit } from '../hooks/useSubmit';
import { checkLogin } from '../lib/validation';
import { afterSignIn } from '../router/guards';
import { routes } from '../routes';

export default function Login() {
  const { t } = useTranslation();
  const { login } = useAuth();
  const { toast } = useToast();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const submit = useSubmit(() => login(email.trim(), password), {
    failureTitle: t('auth.failed.signIn'),
    check: () => checkLogin(email, password),
    onSuccess: () => {
      toast({
        variant: 'success',
        title: t('auth.login.welcomeTitle'),
        description: t('auth.login.welcomeBody'),
      });
      navigate(afterSignIn(location.state), { replace: true });
    },
  });

  return (
    <AuthCard title={t('auth.login.title')} subtitle={t('auth.login.subtitle')}>
      <form className="space-y-4" onSubmit={submit.onSubmit} noValidate>
        <Input
          label={t('auth.fields.email')}
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
        />
        <Input
          label={t('auth.fields.password')}
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
        <div className="text-right text-sm">
          <Link to={routes.forgotPassword} className="link link-primary">
            {t('auth.login.forgot')}
          </Link>
        </div>
        <Button type="submit" block busy={submit.busy} busyLabel={t('auth.login.busy')}>
          {t('auth.login.submit')}
        </Button>
      </form>
      <div className="divider my-0 text-sm">{t('auth.login.or')}</div>
      <p className="text-center text-sm">
        <Trans
          i18nKey="auth.login.newHere"
          components={{
            signup: <Link to={routes.signup} className="link link-primary" />,
            guest: <Link to={routes.guest} className="link link-primary" />,
          }}
        />
      </p>
    </AuthCard>
  );
}
