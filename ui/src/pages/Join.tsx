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
      title: 'Welcome to the family',
      description: `${user.firstName}, you now share ${preview.data?.familyName ?? 'the family'}.`,
    });
    navigate(routes.dashboard, { replace: true });
  };
  const join = useSubmit(() => joinFamily(token), {
    failureTitle: 'Join failed',
    onSuccess: joined,
  });

  if (preview.isLoading || state.status === 'loading') return <Spinner label="Opening the link" />;
  if (preview.error || !preview.data) {
    const expired = preview.error?.status === 410;
    return (
      <AuthCard title={expired ? 'Invite expired' : 'Invite not found'}>
        <p>
          {expired
            ? 'This invite link has expired. Ask for a new one.'
            : 'This invite link is not valid. It may have been used or revoked; ask for a new one.'}
        </p>
        <Link to={routes.home} className="btn btn-primary">
          Go to Highchair
        </Link>
      </AuthCard>
    );
  }

  const { familyName, invitedBy } = preview.data;
  const title = `Join ${familyName}`;
  const subtitle = `${invitedBy} invited you to share the children's meals on Highchair.`;

  if (state.status === 'signedIn') {
    return (
      <AuthCard title={title} subtitle={subtitle}>
        {state.user.isGuest ? (
          <p>
            Guest accounts cannot join a family. Sign out, then open this link again to create an
            account.
          </p>
        ) : (
          <>
            <p>
              You are signed in as {state.user.email}. Joining works for an account that has no
              children of its own yet.
            </p>
            <p className="text-sm text-base-content/70">
              Your saved recipes, grocery lists and meal plan come with you and are shared with the
              family. Links you gave co-parents stop working.
            </p>
            <Button block busy={join.busy} busyLabel="Joining..." onClick={() => void join.run()}>
              Join Family
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
        submitLabel="Create Account and Join"
      />
      <p className="text-center text-sm">
        Already have an account?{' '}
        <Link
          to={routes.login}
          state={{ from: `/join/${encodeURIComponent(token)}` } satisfies ReturnTo}
          className="link link-primary"
        >
          Log In
        </Link>{' '}
        first, then open this link again.
      </p>
    </AuthCard>
  );
}
