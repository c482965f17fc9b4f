import { Copy, LogOut, UserMinus, UserPlus } from 'lucide-react';
import { useRef, useState } from 'react';

import {
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

const ROLE_LABELS: Record<Member['role'], string> = { mom: 'Mom', dad: 'Dad', guest: 'Guest' };

const day = (iso: string) => formatDate(iso, 'medium');

/** The whole name, or the first name when there is no last one. */
const nameOf = (m: Member) => `${m.firstName} ${m.lastName}`.trim();

/**
 * The profile page's family card: who shares the family, since when, an invite link for another
 * parent (shown once), open links to revoke, and leaving or removing someone.
 */
export function FamilyMembers() {
  const { data: family, isLoading } = useFamily();
  const actions = useFamilyActions();
  const { toast } = useToast();
  const [link, setLink] = useState<CreatedInvite | null>(null);
  const [leaving, setLeaving] = useState(false);
  const linkField = useRef<HTMLInputElement>(null);

  const invite = useSubmit((signal) => actions.invite(signal), {
    failureTitle: 'Invite failed',
    onSuccess: (made) => setLink(made),
  });
  const removal = useConfirmDelete({
    remove: (member: Member, signal) => actions.remove(member.id, signal),
    failureTitle: 'Remove failed',
    done: (member) => ({
      title: 'Removed from your family',
      description: `${member.firstName} no longer sees your family.`,
    }),
    abortOnCancel: true,
  });
  const removing = removal.target;
  const leave = useSubmit((signal) => actions.leave(signal), {
    failureTitle: 'Leave failed',
    onSuccess: () => {
      setLeaving(false);
      toast({
        variant: 'success',
        title: 'You left the family',
        description: 'Your account now has a family of its own.',
      });
    },
  });

  const copy = async () => {
    if (!link) return;
    try {
      // Missing over plain http on a LAN: then the link is selected for a manual copy.
      await navigator.clipboard.writeText(link.url);
      toast({ variant: 'success', title: 'Link copied' });
    } catch {
      linkField.current?.select();
      toast({ title: 'Copy the selected link', description: 'Press Ctrl+C or use Copy.' });
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
          <p className="text-sm text-base-content/70">
            Everyone here sees and changes the children, meals and photos.
          </p>
        </div>
        <ul className="divide-y divide-base-300" aria-label="Family members">
          {family.members.map((m) => (
            <li key={m.id} className="flex flex-wrap items-center gap-3 py-3">
              <span className="min-w-0 flex-1">
                <span className="block wrap-anywhere font-medium">
                  {nameOf(m)}
                  {m.isYou ? ' (you)' : ''}
                </span>
                <span className="text-sm text-base-content/70">
                  {ROLE_LABELS[m.role]} · Joined {day(m.joinedAt)}
                </span>
              </span>
              {m.isYou ? null : (
                <Button variant="ghost" size="sm" onClick={() => removal.ask(m)}>
                  <UserMinus aria-hidden size={16} /> Remove
                </Button>
              )}
            </li>
          ))}
        </ul>

        {link ? (
          <div className="rounded-box bg-base-200 p-4" role="status">
            <p className="font-medium">Invite link for another parent</p>
            <p className="text-sm text-base-content/70">
              Shown only now. It works once, for 7 days (until {day(link.expiresAt)}).
            </p>
            <div className="mt-2 flex flex-wrap gap-2">
              <input
                ref={linkField}
                className="input input-bordered input-sm min-w-0 flex-1"
                readOnly
                value={link.url}
                aria-label="Invite link"
                onFocus={(e) => e.target.select()}
              />
              <Button size="sm" onClick={() => void copy()}>
                <Copy aria-hidden size={16} /> Copy Link
              </Button>
            </div>
          </div>
        ) : null}

        {family.invites.length > 0 ? (
          <div>
            <h3 className="font-medium">Open invite links</h3>
            <ul className="mt-1 divide-y divide-base-300">
              {family.invites.map((i) => (
                <li key={i.id} className="flex flex-wrap items-center gap-2 py-2 text-sm">
                  <span className="flex-1">
                    Made by {i.invitedBy} on {day(i.createdAt)}, expires {day(i.expiresAt)}
                  </span>
                  <RevokeButton
                    onRevoke={(signal) => actions.revoke(i.id, signal)}
                    onDone={() => {
                      if (link?.id === i.id) setLink(null);
                      toast({ variant: 'success', title: 'Invite link revoked' });
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
              <LogOut aria-hidden size={18} /> Leave Family
            </Button>
          ) : (
            <span />
          )}
          <Button busy={invite.busy} busyLabel="Creating link..." onClick={() => void invite.run()}>
            <UserPlus aria-hidden size={18} /> Invite a Parent
          </Button>
        </div>
      </div>

      <ConfirmDialog
        {...removal.dialog}
        title="Remove from family?"
        message={`${removing ? nameOf(removing) : ''} will no longer see or change your children, meals and photos, and is signed out everywhere. Their account stays, with a family of its own.`}
        confirmLabel="Remove"
      />
      <ConfirmDialog
        open={leaving}
        title="Leave this family?"
        message="You will no longer see or change these children, meals and photos. Your account stays, with a new empty family. The others keep everything."
        confirmLabel="Leave Family"
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
  const revoke = useSubmit(onRevoke, { failureTitle: 'Revoke failed', onSuccess: onDone });
  return (
    <Button variant="ghost" size="sm" busy={revoke.busy} onClick={() => void revoke.run()}>
      Revoke
    </Button>
  );
}
