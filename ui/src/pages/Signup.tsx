import { Link, useNavigate } from 'react-router-dom';

import { useAuth } from '../auth/auth-context';
import { AuthCard } from '../components/auth/AuthCard';
import { SignupForm } from '../components/auth/SignupForm';
import { Spinner } from '../components/ui/Spinner';
import { useToast } from '../components/ui/toast-context';
import { useSite } from '../hooks/useSite';
import { routes } from '../routes';

export default function Signup() {
  const { signup } = useAuth();
  const { toast } = useToast();
  const navigate = useNavigate();
  const { data: site, isLoading } = useSite();

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

  return (
    <AuthCard title="Sign Up" subtitle="Create your family's account.">
      <SignupForm
        create={signup}
        submitLabel="Create Account"
        onCreated={(user) => {
          toast({
            variant: 'success',
            title: 'Account created',
            description: `Welcome to Highchair, ${user.firstName}!`,
          });
          navigate(routes.dashboard, { replace: true });
        }}
      />
      <p className="text-center text-sm">
        Already have an account?{' '}
        <Link to={routes.login} className="link link-primary">
          Log In
        </Link>
      </p>
    </AuthCard>
  );
}
