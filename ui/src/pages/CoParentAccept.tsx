import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate } from 'react-router-dom';

import { ApiFailure } from '../api/client';
import { AuthCard } from '../components/auth/AuthCard';
import { PinInput } from '../components/auth/PinInput';
import { Button } from '../components/ui/Button';
import { Spinner } from '../components/ui/Spinner';
import { useToast } from '../components/ui/toast-context';
import {
  shareActions,
  useShareInvitation,
  useShareSession,
  useShareSignedIn,
  useShareToken,
} from '../hooks/useShare';
import { PIN_ATTEMPTS, PIN_LENGTH, pinWeakness, wrongPinMessage } from '../lib/coParents';
import { pathTo, routes } from '../routes';

/**
 * `/co-parent/accept/:token`: the link a parent shared. Verifies it, then asks for the PIN the
 * parent shared (or, once chosen, the co-parent's own): the link alone opens nothing. The first
 * time in, the co-parent may choose their own PIN (spec sections 2, 4, 8). A browser with a
 * live session for the link goes straight on to the dashboard.
 */
export default function CoParentAccept() {
  const { t } = useTranslation();
  const token = useShareToken();
  const invitation = useShareInvitation(token);
  const session = useShareSession(token);
  const navigate = useNavigate();
  // Signed in for the first time: the co-parent may choose their own PIN before going on.
  const [choosing, setChoosing] = useState(false);
  const dashboard = pathTo(routes.coParentDashboard, { token });

  if (!token) return <Navigate to={routes.home} replace />;
  if (choosing && invitation.data) {
    return (
      <ChoosePin
        token={token}
        name={invitation.data.name}
        onDone={() => navigate(dashboard, { replace: true })}
      />
    );
  }
  if (invitation.isLoading || session.isLoading) {
    return <Spinner label={t('coParents.accept.verifying')} />;
  }
  if (invitation.error || !invitation.data) {
    return <InvitationProblem error={invitation.error} />;
  }
  if (session.data) return <Navigate to={dashboard} replace />;
  const { name, state } = invitation.data;
  return (
    <EnterPin
      token={token}
      name={name}
      firstTime={state === 'pending'}
      onSignedIn={(first) => (first ? setChoosing(true) : navigate(dashboard, { replace: true }))}
    />
  );
}

/** The spec's invitation texts (section 8) for a link that does not open. */
function InvitationProblem({ error }: { error: ApiFailure | undefined }) {
  const { t } = useTranslation();
  const status = error?.status;
  const message =
    status === 404
      ? t('coParents.accept.invalid')
      : status === 410
        ? t('coParents.accept.expired')
        : t('coParents.accept.verifyError');
  return (
    <AuthCard
      title={t(status === 410 ? 'coParents.accept.expiredTitle' : 'coParents.accept.invalidTitle')}
    >
      <p role="alert">{message}</p>
      <Link to={routes.home} className="btn btn-primary">
        {t('auth.goHome')}
      </Link>
    </AuthCard>
  );
}

/** The co-parent, signed in with the PIN the parent shared, may choose their own. */
function ChoosePin({ token, name, onDone }: { token: string; name: string; onDone: () => void }) {
  const { t } = useTranslation();
  const signedIn = useShareSignedIn(token);
  const { toast } = useToast();
  const [pin, setPin] = useState('');
  const [confirm, setConfirm] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const weak = pinWeakness(pin);
    if (weak) return setError(weak);
    if (confirm !== pin) return setError(t('coParents.choose.mismatch'));
    setError(null);
    setBusy(true);
    try {
      await signedIn(await shareActions.choosePin(token, pin, confirm));
      toast({ variant: 'success', title: t('coParents.choose.done') });
      onDone();
    } catch (err) {
      const failure = err instanceof ApiFailure ? err : null;
      setError(failure?.message ?? t('common.unexpectedError'));
      toast({
        variant: 'error',
        title: failure?.title ?? t('errors.pinSetup'),
        description: failure?.message ?? t('common.unexpectedError'),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title={t('coParents.choose.title')}
      subtitle={t('coParents.choose.subtitle', { name, length: PIN_LENGTH })}
    >
      <form className="flex flex-col gap-4" onSubmit={(e) => void submit(e)} noValidate>
        <p className="text-sm text-base-content/70">
          {t('coParents.pin.tooShort', { length: PIN_LENGTH })}
        </p>
        <PinInput
          label={t('coParents.choose.newPin')}
          value={pin}
          onChange={setPin}
          invalid={Boolean(error)}
          describedBy={error ? 'pin-error' : undefined}
          autoFocus
        />
        <PinInput
          label={t('coParents.choose.repeatPin')}
          value={confirm}
          onChange={setConfirm}
          invalid={Boolean(error)}
          describedBy={error ? 'pin-error' : undefined}
        />
        {error ? (
          <p id="pin-error" role="alert" className="text-center text-sm text-error">
            {error}
          </p>
        ) : null}
        <Button type="submit" block busy={busy} busyLabel={t('ui.busy.saving')}>
          {t('coParents.choose.submit')}
        </Button>
        <Button variant="ghost" block onClick={onDone} disabled={busy}>
          {t('coParents.choose.keep')}
        </Button>
      </form>
    </AuthCard>
  );
}

interface EnterPinProps {
  token: string;
  name: string;
  /** The link has never been opened: the PIN is the one the parent shared. */
  firstTime: boolean;
  onSignedIn: (firstTime: boolean) => void;
}

function EnterPin({ token, name, firstTime, onSignedIn }: EnterPinProps) {
  const { t } = useTranslation();
  const signedIn = useShareSignedIn(token);
  const { toast } = useToast();
  const [pin, setPin] = useState('');
  const [failures, setFailures] = useState(0);
  const [error, setError] = useState<string | null>(null);
  // Set after the third wrong PIN (only a reload clears it) or when the server holds the link.
  const [blocked, setBlocked] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const block = (message: string) => {
    setBlocked(message);
    toast({ variant: 'error', title: t('coParents.enter.blockedTitle'), description: message });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (blocked) return;
    if (pin.length < PIN_LENGTH)
      return setError(t('coParents.pin.tooShort', { length: PIN_LENGTH }));
    setBusy(true);
    try {
      const session = await shareActions.signIn(token, pin);
      onSignedIn(firstTime);
      await signedIn(session);
    } catch (err) {
      const failure = err instanceof ApiFailure ? err : null;
      setPin('');
      if (failure?.status === 401 && failure.code === 'Invalid PIN') {
        const attempt = failures + 1;
        setFailures(attempt);
        if (attempt >= PIN_ATTEMPTS) {
          setError(null);
          block(t('coParents.enter.tooMany'));
        } else {
          setError(wrongPinMessage(attempt));
        }
      } else if (failure?.status === 429) {
        setError(null);
        // The link is locked ('Access blocked'), or the server holds it for a while: 'Too
        // many attempts' / 'Please try again after <time>' (spec section 8).
        block(
          failure.code === 'Access blocked'
            ? failure.message
            : `${failure.title}. ${failure.message}`,
        );
      } else {
        setError(failure?.message ?? t('coParents.accept.verifyError'));
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title={t('coParents.enter.title')}
      subtitle={
        firstTime
          ? t('coParents.enter.firstTime', { name, length: PIN_LENGTH })
          : t('coParents.enter.welcomeBack', { name })
      }
    >
      <form className="flex flex-col gap-4" onSubmit={(e) => void submit(e)} noValidate>
        <PinInput
          label={t('coParents.enter.pin')}
          value={pin}
          onChange={(value) => {
            setPin(value);
            setError(null);
          }}
          disabled={Boolean(blocked)}
          invalid={Boolean(error)}
          describedBy={error || blocked ? 'pin-error' : undefined}
          autoFocus
        />
        {error || blocked ? (
          <p id="pin-error" role="alert" className="text-center text-sm text-error">
            {blocked ?? error}
          </p>
        ) : null}
        <Button
          type="submit"
          block
          busy={busy}
          busyLabel={t('coParents.enter.busy')}
          disabled={Boolean(blocked) || pin.length < PIN_LENGTH}
        >
          {t('coParents.enter.submit')}
        </Button>
      </form>
    </AuthCard>
  );
}
