import { Info } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';

import { useAuth } from '../auth/auth-context';
import { AuthCard } from '../components/auth/AuthCard';
import { Button } from '../components/ui/Button';
import { Input } from '../components/ui/Input';
import { useToast } from '../components/ui/toast-context';
import { useSite } from '../hooks/useSite';
import { useSubmit } from '../hooks/useSubmit';
import {
  GUEST_CHILDREN_MAX,
  checkGuest,
  guestChildren,
  guestChildrenError,
} from '../lib/validation';
import { routes } from '../routes';

export default function Guest() {
  const { t } = useTranslation();
  const { startGuest } = useAuth();
  const { toast } = useToast();
  const navigate = useNavigate();
  const { data: site } = useSite();
  const [firstName, setFirstName] = useState('');
  const [children, setChildren] = useState('1');
  const submit = useSubmit(() => startGuest(firstName.trim(), guestChildren(children)), {
    failureTitle: t('auth.failed.guest'),
    check: () => {
      const tooMany = guestChildrenError(children);
      return checkGuest(firstName) ?? (tooMany ? { fields: { children: tooMany } } : null);
    },
    onSuccess: () => {
      toast({
        variant: 'success',
        title: t('auth.guest.welcomeTitle'),
        description: t('auth.guest.welcomeBody'),
      });
      navigate(routes.dashboard, { replace: true });
    },
  });

  if (site && !site.allowGuests) {
    return (
      <AuthCard title={t('auth.guest.title')}>
        <p>{t('auth.guest.off')}</p>
        <Link to={routes.signup} className="btn btn-primary">
          {t('auth.guest.signUp')}
        </Link>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('auth.guest.title')} subtitle={t('auth.guest.subtitle')}>
      <div role="note" className="alert alert-info alert-soft">
        <Info aria-hidden size={18} />
        <span>{t('auth.guest.note')}</span>
      </div>
      <form className="space-y-4" onSubmit={submit.onSubmit} noValidate>
        <Input
          label={t('auth.fields.firstName')}
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
          label={t('auth.guest.children')}
          hint={t('auth.guest.childrenHint', { min: 1, max: GUEST_CHILDREN_MAX })}
          error={submit.fieldErrors.children}
          type="number"
          min={1}
          max={GUEST_CHILDREN_MAX}
          inputMode="numeric"
          value={children}
          onChange={(e) => {
            setChildren(e.target.value);
            submit.clearFieldError('children');
          }}
        />
        <Button type="submit" block busy={submit.busy} busyLabel={t('auth.guest.busy')}>
          {t('auth.guest.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
