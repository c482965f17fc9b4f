import { Copy, LogOut, UserMinus, UserPlus } from 'lucide-react';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import {
  roleLabel,
  useFamily,
  useFamilyActions,
  type CreatedInvite,
  type Member,
} from '../../hooks/useFamily';
import { useSubmit } from '../../hooks/useSubmit';
import { formatDate } from '../../lib/dates';
import { Button } from '../ui/Button';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { useToast } from '../ui/toast-context';
import { useConfirmDelete } from '../ui/useConfirmDelete';

const day = (iso: string) => formatDate(iso, 'medium');

/** The whole name, or the first name when there is no last one. */
const nameOf = (m: Member) => `${m.firstName} ${m.lastName}`.trim();

/**
 * The profile page's family card: who shares the family, since when, an invite link for another
 * parent (shown once), open links to revoke, and leaving or removing someone.
 */
export function FamilyMembers() {
  const { t } = useTranslation();
  const { data: family, isLoading } = useFamily();
  const actions = useFamilyActions();
  const { toast } = useToast();
  const [link, setLink] = useState<CreatedInvite | null>(null);
  const [leaving, setLeaving] = useState(false);
  const linkField = useRef<HTMLInputElement>(null);

  const invite = useSubmit((signal) => actions.invite(signal), {
    failureTitle: t('family.errors.invite'),
    onSuccess: (made) => setLink(made),
  });
  const removal = useConfirmDelete({
    remove: (member: Member, signal) => actions.remove(member.id, signal),
    failureTitle: t('family.errors.remove'),
    done: (member) => ({
      title: t('family.members.removed'),
      description: t('family.members.removedText', { name: member.firstName }),
    }),
    abortOnCancel: true,
  });
  const removing = removal.target;
  const leave = useSubmit((signal) => actions.leave(signal), {
    failureTitle: t('family.errors.leave'),
    onSuccess: () => {
      setLeaving(false);
      toast({
        variant: 'success',
        title: t('family.members.left'),
        description: t('family.members.leftText'),
      });
    },
  });

  const copy = async () => {
    if (!link) return;
    try {
      // Missing over plain http on a LAN: then the link is selected for a manual copy.
      await navigator.clipboard.writeText(link.url);
      toast({ variant: 'success', title: t('family.members.linkCopied') });
    } catch {
      linkField.current?.select();
      toast({
        title: t('family.members.copySelected'),
        description: t('family.members.copySelectedText'),
      });
    }
  };

  if (isLoading || !family) {
    return (
      <div className="card mt-6 border border-base-300 bg-base-100" aria-busy="true">
        <div className="card-body gap-3">
          <div className="skeleton h-6 w-40" />
          <div className="skeleton h-12 w-full" />
        </div>
      </div>
    );
  }

  const others = family.members.filter((m) => !m.isYou);
  return (
    <section
      className="card mt-6 border border-base-300 bg-base-100"
      aria-labelledby="family-title"
    >
      <div className="card-body gap-4">
        <div>
          <h2 id="family-title" className="card-title">
            {family.name}
          </h2>
          <p className="text-sm text-base-content/70">{t('family.members.intro')}</p>
        </div>
        <ul className="divide-y divide-base-300" aria-label={t('family.members.listLabel')}>
          {family.members.map((m) => (
            <li key={m.id} className="flex flex-wrap items-center gap-3 py-3">
              <span className="min-w-0 flex-1">
                <span className="block wrap-anywhere font-medium">
                  {m.isYou ? t('family.members.you', { name: nameOf(m) }) : nameOf(m)}
                </span>
                <span className="text-sm text-base-content/70">
                  {roleLabel(m.role)} · {t('family.members.joined', { date: day(m.joinedAt) })}
                </span>
              </span>
              {m.isYou ? null : (
                <Button variant="ghost" size="sm" onClick={() => removal.ask(m)}>
                  <UserMinus aria-hidden size={16} /> {t('common.remove')}
                </Button>
              )}
            </li>
          ))}
        </ul>

        {link ? (
          <div className="rounded-box bg-base-200 p-4" role="status">
            <p className="font-medium">{t('family.members.inviteTitle')}</p>
            <p className="text-sm text-base-content/70">
              {t('family.members.inviteText', { date: day(link.expiresAt) })}
            </p>
            <div className="mt-2 flex flex-wrap gap-2">
              <input
                ref={linkField}
                className="input input-bordered input-sm min-w-0 flex-1"
                readOnly
                value={link.url}
                aria-label={t('family.members.inviteLink')}
                onFocus={(e) => e.target.select()}
              />
              <Button size="sm" onClick={() => void copy()}>
                <Copy aria-hidden size={16} /> {t('family.members.copyLink')}
              </Button>
            </div>
          </div>
        ) : null}

        {family.invites.length > 0 ? (
          <div>
            <h3 className="font-medium">{t('family.members.openInvites')}</h3>
            <ul className="mt-1 divide-y divide-base-300">
              {family.invites.map((i) => (
                <li key={i.id} className="flex flex-wrap items-center gap-2 py-2 text-sm">
                  <span className="flex-1">
                    {t('family.members.inviteMade', {
                      name: i.invitedBy,
                      created: day(i.createdAt),
                      expires: day(i.expiresAt),
                    })}
                  </span>
                  <RevokeButton
                    onRevoke={(signal) => actions.revoke(i.id, signal)}
                    onDone={() => {
                      if (link?.id === i.id) setLink(null);
                      toast({ variant: 'success', title: t('family.members.revoked') });
                    }}
                  />
                </li>
              ))}
            </ul>
          </div>
        ) : null}

        <div className="card-actions justify-between">
          {others.length > 0 ? (
            <Button variant="outline" onClick={() => setLeaving(true)}>
              <LogOut aria-hidden size={18} /> {t('family.members.leave')}
            </Button>
          ) : (
            <span />
          )}
          <Button
            busy={invite.busy}
            busyLabel={t('family.members.creatingLink')}
            onClick={() => void invite.run()}
          >
            <UserPlus aria-hidden size={18} /> {t('family.members.invite')}
          </Button>
        </div>
      </div>

      <ConfirmDialog
        {...removal.dialog}
        title={t('family.members.removeTitle')}
        message={t('family.members.removeText', { name: removing ? nameOf(removing) : '' })}
        confirmLabel={t('common.remove')}
      />
      <ConfirmDialog
        open={leaving}
        title={t('family.members.leaveTitle')}
        message={t('family.members.leaveText')}
        confirmLabel={t('family.members.leave')}
        busy={leave.busy}
        onConfirm={() => void leave.run()}
        onCancel={() => {
          leave.cancel();
          setLeaving(false);
        }}
      />
    </section>
  );
}

function RevokeButton({
  onRevoke,
  onDone,
}: {
  onRevoke: (signal: AbortSignal) => Promise<void>;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const revoke = useSubmit(onRevoke, {
    failureTitle: t('family.errors.revoke'),
    onSuccess: onDone,
  });
  return (
    <Button variant="ghost" size="sm" busy={revoke.busy} onClick={() => void revoke.run()}>
      {t('family.members.revoke')}
    </Button>
  );
}
