import { KeyRound } from 'lucide-react';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { api, unwrap } from '../api/client';
import { AuthCard } from '../components/auth/AuthCard';
import { Button } from '../components/ui/Button';
import { Input } from '../components/ui/Input';
import { useSubmit } from '../hooks/useSubmit';
import { routes } from '../routes';

/** The server's command for a reset link (a command: the same in every language; only the
 * e-mail placeholder after it is translated). */
const RESET_COMMAND = 'highchair user reset-password';

export default function ForgotPassword() {
  const { t } = useTranslation();
  const [email, setEmail] = useState('');
  const [answer, setAnswer] = useState<string | null>(null);
  const submit = useSubmit(
    (signal) =>
      unwrap(
        api.POST('/auth/forgot-password', { body: { email: email.trim() }, signal }),
        t('errors.error'),
      ),
    { failureTitle: t('errors.error'), onSuccess: (notice) => setAnswer(notice.message) },
  );

  return (
    <AuthCard title={t('auth.forgot.title')} subtitle={t('auth.forgot.subtitle')}>
      <div className="flex gap-3 rounded-box bg-base-200 p-4">
        <KeyRound aria-hidden className="mt-1 shrink-0 text-primary" />
        <p>
          <Trans
            i18nKey="auth.forgot.howTo"
            values={{ command: `${RESET_COMMAND} ${t('auth.forgot.commandEmail')}` }}
            components={{ code: <code className="rounded bg-base-300 px-1" /> }}
          />
        </p>
      </div>
      {answer ? (
        <p role="status" className="text-base-content/80">
          {answer}
        </p>
      ) : (
        <form className="space-y-4" onSubmit={submit.onSubmit} noValidate>
          <Input
            label={t('auth.fields.email')}
            type="email"
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
          <Button
            type="submit"
            variant="outline"
            block
            busy={submit.busy}
            busyLabel={t('auth.forgot.busy')}
          >
            {t('auth.forgot.submit')}
          </Button>
        </form>
      )}
      <Link to={routes.login} className="link link-primary text-center text-sm">
        {t('auth.backToLogIn')}
      </Link>
    </AuthCard>
  );
}
