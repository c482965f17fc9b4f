import { Copy, Send, UserPlus } from 'lucide-react';
import { useId, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';

import { useCoParentActions, coParentTitles, type InvitedCoParent } from '../../hooks/useCoParents';
import { useSubmit } from '../../hooks/useSubmit';
import { checkCoParent, formatExpiry } from '../../lib/coParents';
import { Button } from '../ui/Button';
import { FormActions } from '../ui/FormActions';
import { Input } from '../ui/Input';
import { useToast } from '../ui/toast-context';
import { LinkField, useCopyLink } from './CopyLink';

interface InviteCoParentProps {
  /** Cancel next to Send Invite (the dialog closes); none on the page. */
  onCancel?: () => void;
  /** 'Done' under the link and PIN (the dialog goes to Manage); none on the page. */
  onDone?: () => void;
  /** The name field, for a caller that moves focus to it (Invite Now). */
  nameRef?: Ref<HTMLInputElement>;
}

/**
 * Invite a co-parent: name and email, then the link and the PIN, shown this once (spec
 * section 2, Co-Parent Access dialog and /co-parent).
 */
export function InviteCoParent({ onCancel, onDone, nameRef }: InviteCoParentProps) {
  const [invited, setInvited] = useState<InvitedCoParent | null>(null);
  return invited ? (
    <ShownOnce invited={invited} onAnother={() => setInvited(null)} onDone={onDone} />
  ) : (
    <InviteForm onInvited={setInvited} onCancel={onCancel} nameRef={nameRef} />
  );
}

function InviteForm({
  onInvited,
  onCancel,
  nameRef,
}: {
  onInvited: (made: InvitedCoParent) => void;
  onCancel?: () => void;
  nameRef?: Ref<HTMLInputElement>;
}) {
  const { t } = useTranslation();
  const { invite } = useCoParentActions();
  const { toast } = useToast();
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');

  const submit = useSubmit((signal) => invite({ name: name.trim(), email: email.trim() }, signal), {
    failureTitle: coParentTitles.invite(),
    check: () => {
      const found = checkCoParent({ name, email });
      if (!found) return null;
      toast({ title: found.title, description: found.message });
      return { fields: found.fields };
    },
    onSuccess: (made) => {
      toast({
        variant: 'success',
        title: t('coParents.invite.invitedTitle'),
        description: t('coParents.invite.invited', { name: made.coParent.name }),
      });
      onInvited(made);
    },
  });

  return (
    <form className="space-y-4" onSubmit={submit.onSubmit} noValidate>
      <Input
        ref={nameRef}
        label={t('coParents.invite.name')}
        error={submit.fieldErrors.name}
        value={name}
        autoComplete="off"
        onChange={(e) => {
          setName(e.target.value);
          submit.clearFieldError('name');
        }}
      />
      <Input
        label={t('coParents.invite.email')}
        type="email"
        inputMode="email"
        autoComplete="off"
        error={submit.fieldErrors.email}
        value={email}
        onChange={(e) => {
          setEmail(e.target.value);
          submit.clearFieldError('email');
        }}
      />
      <FormActions
        layout="wrap"
        onCancel={
          onCancel
            ? () => {
                submit.cancel();
                onCancel();
              }
            : undefined
        }
        busy={submit.busy}
        busyLabel={t('coParents.invite.sending')}
      >
        <Send aria-hidden size={18} /> {t('coParents.invite.send')}
      </FormActions>
    </form>
  );
}

/** The link and the PIN of a new co-parent: the PIN is never shown again. */
function ShownOnce({
  invited,
  onAnother,
  onDone,
}: {
  invited: InvitedCoParent;
  onAnother: () => void;
  onDone?: () => void;
}) {
  const { t } = useTranslation();
  const { copy, field } = useCopyLink(invited.link, true);
  const { name, expiresAt } = invited.coParent;
  const titleId = useId();
  return (
    <section
      className="space-y-3 rounded-box border border-base-300 bg-base-200 p-4"
      aria-labelledby={titleId}
    >
      <h3 id={titleId} className="font-semibold">
        {t('coParents.invite.invited', { name })}
      </h3>
      <p className="text-sm">
        {t('coParents.invite.shareNote', { name, date: formatExpiry(expiresAt) })}
      </p>
      <div>
        <p className="mb-1 text-sm font-medium">{t('coParents.invite.link')}</p>
        <div className="flex flex-wrap gap-2">
          <div className="min-w-0 flex-1">
            <LinkField ref={field} value={invited.link} label={t('coParents.invite.linkLabel')} />
          </div>
          <Button size="sm" onClick={() => void copy()}>
            <Copy aria-hidden size={16} /> {t('coParents.copy.button')}
          </Button>
        </div>
      </div>
      <dl>
        <dt className="text-sm font-medium">{t('coParents.invite.pin')}</dt>
        <dd className="font-mono text-3xl font-bold tracking-[0.3em]">{invited.pin}</dd>
      </dl>
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="outline" onClick={onAnother}>
          <UserPlus aria-hidden size={18} /> {t('coParents.invite.another')}
        </Button>
        {onDone ? <Button onClick={onDone}>{t('common.done')}</Button> : null}
      </div>
    </section>
  );
}
