import { CalendarPlus, Copy, KeyRound, Trash2, X } from 'lucide-react';
import i18n from 'i18next';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { coParentTitles, useCoParentActions, type CoParent } from '../../hooks/useCoParents';
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

/** Each access badge's label in the catalogues. */
const ACCESS_LABEL = {
  Active: 'coParents.badge.active',
  Pending: 'coParents.badge.pending',
  Locked: 'coParents.badge.locked',
} as const;

/** The message of a failure, for a toast whose title is the screen's own. */
function messageOf(err: unknown): string {
  return err instanceof Error && err.message ? err.message : i18n.t('common.unexpectedError');
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
  const { t } = useTranslation();
  const { resetPin, extend } = useCoParentActions();
  const { toast } = useToast();
  const titleId = useId();
  const [newPin, setNewPin] = useState<string | null>(null);
  // A reset signs the co-parent out everywhere: it is asked first.
  const [confirmReset, setConfirmReset] = useState(false);
  const { copy, field, shown } = useCopyLink(coParent.link);
  const { name } = coParent;

  const reset = useSubmit((signal) => resetPin(coParent.id, signal), {
    failureTitle: coParentTitles.pin(),
    onSuccess: (made) => {
      setNewPin(made.pin);
      toast({
        variant: 'success',
        title: t('coParents.card.pinGeneratedTitle'),
        description: t('coParents.card.pinGenerated', { name, pin: made.pin }),
        durationMs: 20_000,
      });
    },
    onFailure: (err) => {
      toast({ title: coParentTitles.pin(), description: messageOf(err) });
      return true;
    },
  });

  const extension = useSubmit((signal) => extend(coParent.id, signal), {
    failureTitle: coParentTitles.extend(),
    onSuccess: (saved) =>
      toast({
        variant: 'success',
        title: t('coParents.card.extendedTitle'),
        description: t('coParents.card.extended', { name, date: formatExpiry(saved.expiresAt) }),
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
        <ul className="flex flex-wrap gap-1" aria-label={t('coParents.card.status', { name })}>
          <li className={`badge ${expiry.expired ? 'badge-error' : 'badge-outline'}`}>
            {expiry.label}
          </li>
          <li className={`badge ${ACCESS_STYLE[access]}`}>{t(ACCESS_LABEL[access])}</li>
          <li className={`badge ${coParent.pinSet ? 'badge-outline' : 'badge-ghost'}`}>
            {t(coParent.pinSet ? 'coParents.badge.pinSet' : 'coParents.badge.noPin')}
          </li>
        </ul>
        {access === 'Locked' ? (
          <p className="text-sm text-error">{t('coParents.card.locked', { name })}</p>
        ) : expiry.expired ? (
          <p className="text-sm text-base-content/70">{t('coParents.card.expired', { name })}</p>
        ) : null}
        {newPin ? (
          <div className="flex items-start gap-2 rounded-box bg-base-200 p-3" role="status">
            <div className="flex-1">
              <p className="text-sm font-medium">{t('coParents.card.newPinFor', { name })}</p>
              <p className="font-mono text-2xl font-bold tracking-[0.3em]">{newPin}</p>
              <p className="text-sm text-base-content/70">{t('coParents.card.newPinNote')}</p>
            </div>
            <button
              type="button"
              className="btn btn-ghost btn-sm btn-square"
              aria-label={t('coParents.card.dismissPin')}
              onClick={() => setNewPin(null)}
            >
              <X aria-hidden size={16} />
            </button>
          </div>
        ) : null}
        {shown ? (
          <LinkField
            ref={field}
            value={coParent.link}
            label={t('coParents.card.linkFor', { name })}
          />
        ) : null}
        <div className="card-actions flex-wrap justify-end">
          <Button variant="ghost" size="sm" onClick={() => void copy()}>
            <Copy aria-hidden size={16} /> {t('coParents.copy.button')}
          </Button>
          <Button
            variant="ghost"
            size="sm"
            busy={reset.busy}
            busyLabel={t('coParents.card.generating')}
            onClick={() => (coParent.pinSet ? setConfirmReset(true) : void reset.run())}
          >
            <KeyRound aria-hidden size={16} />{' '}
            {t(coParent.pinSet ? 'coParents.card.resetPin' : 'coParents.card.generatePin')}
          </Button>
          {canExtend(coParent.expiresAt, now) ? (
            <Button
              variant="ghost"
              size="sm"
              busy={extension.busy}
              busyLabel={t('coParents.card.extending')}
              onClick={() => void extension.run()}
            >
              <CalendarPlus aria-hidden size={16} /> {t('coParents.card.extend')}
            </Button>
          ) : null}
          <Button variant="ghost" size="sm" className="text-error" onClick={onRemove}>
            <Trash2 aria-hidden size={16} /> {t('common.remove')}
          </Button>
        </div>
        <ConfirmDialog
          open={confirmReset}
          title={t('coParents.card.resetTitle')}
          message={t('coParents.card.resetMessage', { name })}
          detail={t('coParents.card.resetDetail', { name })}
          confirmLabel={t('coParents.card.resetPin')}
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
