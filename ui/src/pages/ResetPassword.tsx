import { useState } from 'react';
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
import { checkPassword } from '../lib/validation';
import { routes } from '../routes';

export default function ResetPassword() {
  const { token = '' } = useParams();
  const { resetPassword } = useAuth();
  const { toast } = useToast();
  const navigate = useNavigate();
  const link = useSWR(keys.resetLink(token), () =>
    unwrap(api.GET('/auth/reset-password/{token}', { params: { path: { token } } }), 'Error'),
  );
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const submit = useSubmit(() => resetPassword(token, password), {
    failureTitle: 'Password reset failed',
    check: () => {
      const problem = checkPassword(password);
      if (problem) return problem;
      return password === confirm ? null : { fields: { confirm: 'Passwords do not match' } };
    },
    onSuccess: () => {
      toast({
        variant: 'success',
        title: 'Password updated',
        description: 'You are signed in with your new password.',
      });
      navigate(routes.dashboard, { replace: true });
    },
  });

  if (link.isLoading) return <Spinner />;
  if (link.error || !link.data) {
    return (
      <AuthCard title="Reset password">
        <p>
          This password reset link is invalid or has expired. Ask the person who runs this server
          for a new one.
        </p>
        <Link to={routes.login} className="btn btn-primary">
          Back to Log In
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard
      title="Choose a new password"
      subtitle={`Hi ${link.data.firstName}, this also signs you out everywhere else.`}
    >
      <form className="space-y-4" onSubmit={submit.onSubmit} noValidate>
        <Input
          label="New password"
          hint="At least 8 characters"
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
          label="Confirm new password"
          error={submit.fieldErrors.confirm}
          type="password"
          autoComplete="new-password"
          value={confirm}
          onChange={(e) => {
            setConfirm(e.target.value);
            submit.clearFieldError('confirm');
          }}
        />
        <Button type="submit" block busy={submit.busy} busyLabel="Saving...">
          Set New Password
        </Button>
      </form>
    </AuthCard>
  );
}
