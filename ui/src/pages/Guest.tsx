import { Info } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';

import { useAuth } from '../auth/auth-context';
import { AuthCard } from '../components/auth/AuthCard';
import { Button } from '../components/ui/Button';
import { Input } from '../components/ui/Input';
import { useToast } from '../components/ui/toast-context';
import { useSite } from '../hooks/useSite';
import { useSubmit } from '../hooks/useSubmit';
import { checkGuest, guestChildren, guestChildrenError } from '../lib/validation';
import { routes } from '../routes';

export default function Guest() {
  const { startGuest } = useAuth();
  const { toast } = useToast();
  const navigate = useNavigate();
  const { data: site } = useSite();
  const [firstName, setFirstName] = useState('');
  const [children, setChildren] = useState('1');
  const submit = useSubmit(() => startGuest(firstName.trim(), guestChildren(children)), {
    failureTitle: 'Guest access failed',
    check: () => {
      const tooMany = guestChildrenError(children);
      return checkGuest(firstName) ?? (tooMany ? { fields: { children: tooMany } } : null);
    },
    onSuccess: () => {
      toast({
        variant: 'success',
        title: 'Welcome to Highchair!',
        description: "You're using the app as a guest",
      });
      navigate(routes.dashboard, { replace: true });
    },
  });

  if (site && !site.allowGuests) {
    return (
      <AuthCard title="Continue as Guest">
        <p>Guest access is turned off on this server.</p>
        <Link to={routes.signup} className="btn btn-primary">
          Sign Up
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title="Continue as Guest" subtitle="Try Highchair without creating an account.">
      <div role="note" className="alert alert-info alert-soft">
        <Info aria-hidden size={18} />
        <span>
          Guest access has limited features. Guest accounts unused for 30 days are removed.
        </span>
      </div>
      <form className="space-y-4" onSubmit={submit.onSubmit} noValidate>
        <Input
          label="First name"
          error={submit.fieldErrors.firstName}
          autoComplete="given-name"
          value={firstName}
          onChange={(e) => {
            setFirstName(e.target.value);
            submit.clearFieldError('firstName');
          }}
          required
        />
        <Input
          label="Number of children"
          hint="1 to 10"
          error={submit.fieldErrors.children}
          type="number"
          min={1}
          max={10}
          inputMode="numeric"
          value={children}
          onChange={(e) => {
            setChildren(e.target.value);
            submit.clearFieldError('children');
          }}
        />
        <Button type="submit" block busy={submit.busy} busyLabel="Starting...">
          Continue as Guest
        </Button>
      </form>
    </AuthCard>
  );
}
