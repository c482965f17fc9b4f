import { Trans, useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';

import { useAuth } from '../auth/auth-context';
import { AuthCard } from '../components/auth/AuthCard';
import { SignupForm } from '../components/auth/SignupForm';
import { Spinner } from '../components/ui/Spinner';
import { useToast } from '../components/ui/toast-context';
import { useSite } from '../hooks/useSite';
import { routes } from '../routes';

export default function Signup() {
  const { t } = useTranslation();
  const { signup } = useAuth();
  const { toast } = useToast();
  const navigate = useNavigate();
  const { data: site, isLoading } = useSite();

  if (isLoading) return <Spinner />;
  if (site && !site.signupOpen) {
    return (
      <AuthCard title={t('auth.signup.title')}>
        <p>{t('auth.signup.closed')}</p>
        <Link to={routes.login} className="btn btn-primary">
          {t('auth.signup.logIn')}
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('auth.signup.title')} subtitle={t('auth.signup.subtitle')}>
      <SignupForm
        create={signup}
        submitLabel={t('auth.signup.submit')}
        onCreated={(user) => {
          toast({
            variant: 'success',
            title: t('auth.signup.createdTitle'),
            description: t('auth.signup.createdBody', { name: user.firstName }),
          });
          navigate(routes.dashboard, { replace: true });
        }}
      />
      <p className="text-center text-sm">
        <Trans
          i18nKey="auth.signup.haveAccount"
          components={{ go: <Link to={routes.login} className="link link-primary" /> }}
        />
      </p>
    </AuthCard>
  );
}
