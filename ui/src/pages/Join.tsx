import { Trans, useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';

import { useAuth, type User } from '../auth/auth-context';
import { AuthCard } from '../components/auth/AuthCard';
import { SignupForm } from '../components/auth/SignupForm';
import { Button } from '../components/ui/Button';
import { Spinner } from '../components/ui/Spinner';
import { useToast } from '../components/ui/toast-context';
import { FAMILY_NOUNS } from '../hooks/keys';
import { useRevalidate } from '../hooks/revalidate';
import { useInvitePreview } from '../hooks/useFamily';
import { useSubmit } from '../hooks/useSubmit';
import type { ReturnTo } from '../router/guards';
import { routes } from '../routes';

/** `/join/:token`: another parent's invite link, for a new account or a signed-in empty one. */
export default function Join() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const { state, joinFamily } = useAuth();
  const { toast } = useToast();
  const navigate = useNavigate();
  const revalidate = useRevalidate();
  const preview = useInvitePreview(token);

  const joined = (user: User) => {
    // Every family screen now shows the new family.
    void revalidate(FAMILY_NOUNS);
    toast({
      variant: 'success',
      title: t('auth.join.welcomeTitle'),
      description: preview.data?.familyName
        ? t('auth.join.welcomeBody', { name: user.firstName, family: preview.data.familyName })
        : t('auth.join.welcomeBodyUnnamed', { name: user.firstName }),
    });
    navigate(routes.dashboard, { replace: true });
  };
  const join = useSubmit(() => joinFamily(token), {
    failureTitle: t('auth.failed.join'),
    onSuccess: joined,
  });

  if (preview.isLoading || state.status === 'loading')
    return <Spinner label={t('auth.join.opening')} />;
  if (preview.error || !preview.data) {
    const expired = preview.error?.status === 410;
    return (
      <AuthCard title={t(expired ? 'auth.join.expiredTitle' : 'auth.join.notFoundTitle')}>
        <p>{t(expired ? 'auth.join.expired' : 'auth.join.notFound')}</p>
        <Link to={routes.home} className="btn btn-primary">
          {t('auth.goHome')}
        </Link>
      </AuthCard>
    );
  }

  const { familyName, invitedBy } = preview.data;
  const title = t('auth.join.title', { family: familyName });
  const subtitle = t('auth.join.subtitle', { name: invitedBy });

  if (state.status === 'signedIn') {
    return (
      <AuthCard title={title} subtitle={subtitle}>
        {state.user.isGuest ? (
          <p>{t('auth.join.guest')}</p>
        ) : (
          <>
            <p>{t('auth.join.signedInAs', { email: state.user.email })}</p>
            <p className="text-sm text-base-content/70">{t('auth.join.comesWith')}</p>
            <Button
              block
              busy={join.busy}
              busyLabel={t('auth.join.busy')}
              onClick={() => void join.run()}
            >
              {t('auth.join.submit')}
            </Button>
          </>
        )}
      </AuthCard>
    );
  }

  return (
    <AuthCard title={title} subtitle={subtitle}>
      <SignupForm
        // Signing in re-renders this page as signed in, which unmounts the form before its
        // own success handler would run: go on from here.
        create={async (form) => {
          const user = await joinFamily(token, form);
          joined(user);
          return user;
        }}
        onCreated={() => {}}
        submitLabel={t('auth.join.createSubmit')}
      />
      <p className="text-center text-sm">
        <Trans
          i18nKey="auth.join.haveAccount"
          components={{
            go: (
              <Link
                to={routes.login}
                state={{ from: `/join/${encodeURIComponent(token)}` } satisfies ReturnTo}
                className="link link-primary"
              />
            ),
          }}
        />
      </p>
    </AuthCard>
  );
}
