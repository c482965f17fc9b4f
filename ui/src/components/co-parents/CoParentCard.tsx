import { CalendarPlus, Copy, KeyRound, Trash2, X } from 'lucide-react';
import { useId, useState } from 'react';

import {
  EXTEND_TITLE,
  PIN_TITLE,
  useCoParentActions,
  type CoParent,
} from '../../hooks/useCoParents';
import { useSubmit } from '../../hooks/useSubmit';
import { accessBadge, canExtend, expiryBadge, formatExpiry } from '../../lib/coParents';
import { Button } from '../ui/Button';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { useToast } from '../ui/toast-context';
import { LinkField, useCopyLink } from './CopyLink';

const ACCESS_STYLE = {
  Active: 'badge-success',
  Pending: 'badge-warning',
  Locked: 'badge-error',
} as const;

/** The message of a failure, for a toast whose title is the screen's own. */
function messageOf(err: unknown): string {
  return err instanceof Error && err.message ? err.message : 'An unexpected error occurred';
}

interface CoParentCardProps {
  coParent: CoParent;
  /** The time the badges are worked out at. */
  now: number;
  onRemove: () => void;
}

/**
 * One co-parent (spec section 2): name, email, badges (expiry, Active/Pending or Locked, PIN
 * Set/No PIN) and Copy Link, Generate PIN or Reset PIN, Extend link, Remove. A new PIN shows in
 * the card until dismissed: it is never shown again.
 */
export function CoParentCard({ coParent, now, onRemove }: CoParentCardProps) {
  const { resetPin, extend } = useCoParentActions();
  const { toast } = useToast();
  const titleId = useId();
  const [newPin, setNewPin] = useState<string | null>(null);
  // A reset signs the co-parent out everywhere: it is asked first.
  const [confirmReset, setConfirmReset] = useState(false);
  const { copy, field, shown } = useCopyLink(coParent.link);
  const { name } = coParent;

  const reset = useSubmit((signal) => resetPin(coParent.id, signal), {
    failureTitle: PIN_TITLE,
    onSuccess: (made) => {
      setNewPin(made.pin);
      toast({
        variant: 'success',
        title: 'PIN generated',
        description: `New PIN for ${name}: ${made.pin}. Share it securely; it is shown only once.`,
        durationMs: 20_000,
      });
    },
    onFailure: (err) => {
      toast({ title: PIN_TITLE, description: messageOf(err) });
      return true;
    },
  });

  const extension = useSubmit((signal) => extend(coParent.id, signal), {
    failureTitle: EXTEND_TITLE,
    onSuccess: (saved) =>
      toast({
        variant: 'success',
        title: 'Link extended',
        description: `${name}'s link now works until ${formatExpiry(saved.expiresAt)}.`,
      }),
  });

  const expiry = expiryBadge(coParent.expiresAt, now);
  const access = accessBadge(coParent.state, coParent.accepted);
  return (
    <article aria-labelledby={titleId} className="card border border-base-300 bg-base-100">
      <div className="card-body gap-3 p-4">
        <div className="min-w-0">
          <h3 id={titleId} className="card-title wrap-anywhere text-lg">
            {name}
          </h3>
          <p className="break-all text-sm text-base-content/70">{coParent.email}</p>
        </div>
        <ul className="flex flex-wrap gap-1" aria-label={`Status of ${name}`}>
          <li className={`badge ${expiry.expired ? 'badge-error' : 'badge-outline'}`}>
            {expiry.label}
          </li>
          <li className={`badge ${ACCESS_STYLE[access]}`}>{access}</li>
          <li className={`badge ${coParent.pinSet ? 'badge-outline' : 'badge-ghost'}`}>
            {coParent.pinSet ? 'PIN Set' : 'No PIN'}
          </li>
        </ul>
        {access === 'Locked' ? (
          <p className="text-sm text-error">
            Locked after too many wrong PINs. Reset the PIN to let {name} in again.
          </p>
        ) : expiry.expired ? (
          <p className="text-sm text-base-content/70">
            The link has expired. Extend it to let {name} in again.
          </p>
        ) : null}
        {newPin ? (
          <div className="flex items-start gap-2 rounded-box bg-base-200 p-3" role="status">
            <div className="flex-1">
              <p className="text-sm font-medium">New PIN for {name}</p>
              <p className="font-mono text-2xl font-bold tracking-[0.3em]">{newPin}</p>
              <p className="text-sm text-base-content/70">
                Share it securely. It is shown only now; the old PIN no longer works.
              </p>
            </div>
            <button
              type="button"
              className="btn btn-ghost btn-sm btn-square"
              aria-label="Dismiss new PIN"
              onClick={() => setNewPin(null)}
            >
              <X aria-hidden size={16} />
            </button>
          </div>
        ) : null}
        {shown ? <LinkField ref={field} value={coParent.link} label={`Link for ${name}`} /> : null}
        <div className="card-actions flex-wrap justify-end">
          <Button variant="ghost" size="sm" onClick={() => void copy()}>
            <Copy aria-hidden size={16} /> Copy Link
          </Button>
          <Button
            variant="ghost"
            size="sm"
            busy={reset.busy}
            busyLabel="Generating..."
            onClick={() => (coParent.pinSet ? setConfirmReset(true) : void reset.run())}
          >
            <KeyRound aria-hidden size={16} /> {coParent.pinSet ? 'Reset PIN' : 'Generate PIN'}
          </Button>
          {canExtend(coParent.expiresAt, now) ? (
            <Button
              variant="ghost"
              size="sm"
              busy={extension.busy}
              busyLabel="Extending..."
              onClick={() => void extension.run()}
            >
              <CalendarPlus aria-hidden size={16} /> Extend link
            </Button>
          ) : null}
          <Button variant="ghost" size="sm" className="text-error" onClick={onRemove}>
            <Trash2 aria-hidden size={16} /> Remove
          </Button>
        </div>
        <ConfirmDialog
          open={confirmReset}
          title="Reset PIN?"
          message={`Reset ${name}'s PIN?`}
          detail={`${name} will be signed out on every device and the old PIN stops working. The new PIN is shown once, for you to share with them.`}
          confirmLabel="Reset PIN"
          onConfirm={() => {
            setConfirmReset(false);
            void reset.run();
          }}
          onCancel={() => setConfirmReset(false)}
        />
      </div>
    </article>
  );
}
