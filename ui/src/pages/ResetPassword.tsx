import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import useSWR from 'swr';

import { api, unwrap } from '../api/client';
import { useAuth } from '../auth/auth-context';
import { AuthCard } from '../components/auth/AuthCard';
import { Button } from '../components/ui/Button';
import { Input } from '../components/ui/Input';
import { Spinner } from '../components/ui/Spinner';
import { useToast } from '../components/ui/toast-context';
import { keys } from '../hooks/keys';
import { useSubmit } from '../hooks/useSubmit';
import { PASSWORD_MIN, checkPassword } from '../lib/validation';
import { routes } from '../routes';

export default function ResetPassword() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const { resetPassword } = useAuth();
  const { toast } = useToast();
  const navigate = useNavigate();
  const link = useSWR(keys.resetLink(token), () =>
    unwrap(
      api.GET('/auth/reset-password/{token}', { params: { path: { token } } }),
      t('errors.error'),
    ),
  );
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const submit = useSubmit(() => resetPassword(token, password), {
    failureTitle: t('auth.failed.reset'),
    check: () => {
      const problem = checkPassword(password);
      if (problem) return problem;
      return password === confirm ? null : { fields: { confirm: t('auth.reset.mismatch') } };
    },
    onSuccess: () => {
      toast({
        variant: 'success',
        title: t('auth.reset.doneTitle'),
        description: t('auth.reset.doneBody'),
      });
      navigate(routes.dashboard, { replace: true });
    },
  });

  if (link.isLoading) return <Spinner />;
  if (link.error || !link.data) {
    return (
      <AuthCard title={t('auth.reset.invalidTitle')}>
        <p>{t('auth.reset.invalid')}</p>
        <Link to={routes.login} className="btn btn-primary">
          {t('auth.backToLogIn')}
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title={t('auth.reset.title')}
      subtitle={t('auth.reset.subtitle', { name: link.data.firstName })}
    >
      <form className="space-y-4" onSubmit={submit.onSubmit} noValidate>
        <Input
          label={t('auth.reset.newPassword')}
          hint={t('auth.fields.passwordHint', { min: PASSWORD_MIN })}
          error={submit.fieldErrors.password}
          type="password"
          autoComplete="new-password"
          value={password}
          onChange={(e) => {
            setPassword(e.target.value);
            submit.clearFieldError('password');
          }}
        />
        <Input
          label={t('auth.reset.confirm')}
          error={submit.fieldErrors.confirm}
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => {
            setConfirm(e.target.value);
            submit.clearFieldError('confirm');
          }}
        />
        <Button type="submit" block busy={submit.busy} busyLabel={t('ui.busy.saving')}>
          {t('auth.reset.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
