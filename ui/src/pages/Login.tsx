import { useState } from 'react';
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
  const { login } = useAuth();
  const { toast } = useToast();
  const navigate = useNavigate();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const submit = useSubmit(() => login(email.trim(), password), {
    failureTitle: 'Sign in failed',
    check: () => checkLogin(email, password),
    onSuccess: () => {
      toast({
        variant: 'success',
        title: 'Welcome back!',
        description: 'You have successfully signed in',
      });
      navigate(afterSignIn(location.state), { replace: true });
    },
  });

  return (
    <AuthCard title="Log In" subtitle="Welcome back to Highchair.">
      <form className="space-y-4" onSubmit={submit.onSubmit} noValidate>
        <Input
          label="Email"
          type="email"
          autoComplete="email"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          required
        />
        <Input
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          required
        />
        <div className="text-right text-sm">
          <Link to={routes.forgotPassword} className="link link-primary">
            Forgot password?
          </Link>
        </div>
        <Button type="submit" block busy={submit.busy} busyLabel="Signing In...">
          Log In
        </Button>
      </form>
      <div className="divider my-0 text-sm">or</div>
      <p className="text-center text-sm">
        New here?{' '}
        <Link to={routes.signup} className="link link-primary">
          Sign Up
        </Link>{' '}
        or{' '}
        <Link to={routes.guest} className="link link-primary">
          Continue as Guest
        </Link>
      </p>
    </AuthCard>
  );
}
