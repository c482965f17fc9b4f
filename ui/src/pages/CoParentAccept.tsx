import { useState, type FormEvent } from 'react';
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
    return <Spinner label="Verifying invitation..." />;
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
  const status = error?.status;
  const message =
    status === 404
      ? 'Invalid or expired invitation'
      : status === 410
        ? 'This invitation has expired. Please ask for a new invitation.'
        : 'An error occurred while verifying the invitation';
  return (
    <AuthCard title={status === 410 ? 'Invitation expired' : 'Invalid invitation'}>
      <p role="alert">{message}</p>
      <Link to={routes.home} className="btn btn-primary">
        Go to Highchair
      </Link>
    </AuthCard>
  );
}

/** The co-parent, signed in with the PIN the parent shared, may choose their own. */
function ChoosePin({ token, name, onDone }: { token: string; name: string; onDone: () => void }) {
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
    if (confirm !== pin) return setError('PINs do not match');
    setError(null);
    setBusy(true);
    try {
      await signedIn(await shareActions.choosePin(token, pin, confirm));
      toast({ variant: 'success', title: 'PIN set successfully' });
      onDone();
    } catch (err) {
      const failure = err instanceof ApiFailure ? err : null;
      setError(failure?.message ?? 'An unexpected error occurred');
      toast({
        variant: 'error',
        title: failure?.title ?? 'Error setting up PIN',
        description: failure?.message ?? 'An unexpected error occurred',
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title="Choose your own PIN"
      subtitle={`You're in, ${name}. You can keep using the PIN you were given, or choose your own ${PIN_LENGTH}-digit PIN now.`}
    >
      <form className="flex flex-col gap-4" onSubmit={(e) => void submit(e)} noValidate>
        <p className="text-sm text-base-content/70">PIN must be at least 6 digits</p>
        <PinInput
          label="New PIN"
          value={pin}
          onChange={setPin}
          invalid={Boolean(error)}
          describedBy={error ? 'pin-error' : undefined}
          autoFocus
        />
        <PinInput
          label="Repeat new PIN"
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
        <Button type="submit" block busy={busy} busyLabel="Saving...">
          Set PIN
        </Button>
        <Button variant="ghost" block onClick={onDone} disabled={busy}>
          Keep the PIN I was given
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
    toast({ variant: 'error', title: 'Access blocked', description: message });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (blocked) return;
    if (pin.length < PIN_LENGTH) return setError('PIN must be at least 6 digits');
    setBusy(true);
    try {
      const session = await shareActions.signIn(token, pin);
      onSignedIn(firstTime);
      await signedIn(session);
    } catch (err) {
      const failure = err instanceof ApiFailure ? err : null;
      setPin('');
      if (failure?.status === 401 && failure.title === 'Invalid PIN') {
        const attempt = failures + 1;
        setFailures(attempt);
        if (attempt >= PIN_ATTEMPTS) {
          setError(null);
          block('Too many failed attempts. Please wait before trying again.');
        } else {
          setError(wrongPinMessage(attempt));
        }
      } else if (failure?.status === 429) {
        setError(null);
        // The link is locked ('Access blocked'), or the server holds it for a while: 'Too
        // many attempts' / 'Please try again after <time>' (spec section 8).
        block(
          failure.title === 'Access blocked'
            ? failure.message
            : `${failure.title}. ${failure.message}`,
        );
      } else {
        setError(failure?.message ?? 'An error occurred while verifying the invitation');
      }
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthCard
      title="Enter your PIN"
      subtitle={
        firstTime
          ? `Hello ${name}. Enter the ${PIN_LENGTH}-digit PIN the parent who invited you shared with you.`
          : `Welcome back, ${name}.`
      }
    >
      <form className="flex flex-col gap-4" onSubmit={(e) => void submit(e)} noValidate>
        <PinInput
          label="PIN"
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
          busyLabel="Checking..."
          disabled={Boolean(blocked) || pin.length < PIN_LENGTH}
        >
          Access Dashboard
        </Button>
      </form>
    </AuthCard>
  );
}
