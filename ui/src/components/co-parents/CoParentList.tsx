import { UserPlus, Users } from 'lucide-react';
import { useEffect, useState } from 'react';

import { ApiFailure } from '../../api/client';
import {
  DELETE_TITLE,
  FETCH_TITLE,
  useCoParentActions,
  useCoParents,
  type CoParent,
} from '../../hooks/useCoParents';
import { Button } from '../ui/Button';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { Spinner } from '../ui/Spinner';
import { useToast } from '../ui/toast-context';
import { useConfirmDelete } from '../ui/useConfirmDelete';
import { CoParentCard } from './CoParentCard';

/** The time now, moved on every minute, so a link that expires meanwhile shows Expired. */
function useNow(everyMs = 60_000): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), everyMs);
    return () => window.clearInterval(timer);
  }, [everyMs]);
  return now;
}

interface CoParentListProps {
  /** The removal question: the dialog's, or the page's (which adds 'They will lose all access.'). */
  removeMessage: string;
  /** Invite Now in the empty state. */
  onInviteNow: () => void;
}

/**
 * The family's co-parents as cards (the dialog's Manage tab and /co-parent): a spinner while
 * loading, the empty state, and Remove with its confirmation.
 */
export function CoParentList({ removeMessage, onInviteNow }: CoParentListProps) {
  const { data: coParents, error, isLoading, mutate } = useCoParents();
  const { remove } = useCoParentActions();
  const { toast } = useToast();
  const now = useNow();
  const removal = useConfirmDelete({
    remove: (coParent: CoParent, signal) => remove(coParent.id, signal),
    failureTitle: DELETE_TITLE,
    done: (coParent) => ({
      title: 'Co-parent removed',
      description: `${coParent.name} no longer has access.`,
    }),
    onFailure: (err) => {
      const message = err instanceof Error ? err.message : '';
      toast({ title: DELETE_TITLE, description: message || 'An unexpected error occurred' });
      return true;
    },
    closeOnFailure: true,
    abortOnCancel: true,
  });
  const removing = removal.target;

  let body;
  if (error && !coParents) {
    // A refusal carries the spec's own title ('Authentication required').
    const title =
      error instanceof ApiFailure && error.status >= 400 && error.status < 500
        ? error.title
        : FETCH_TITLE;
    body = (
      <div role="alert" className="alert alert-error items-start">
        <div className="flex-1">
          <p className="font-semibold">{title}</p>
          <p>{error instanceof Error ? error.message : 'An unexpected error occurred'}</p>
        </div>
        <Button variant="ghost" size="sm" onClick={() => void mutate()}>
          Try again
        </Button>
      </div>
    );
  } else if (isLoading || !coParents) {
    body = <Spinner label="Loading co-parents" />;
  } else if (coParents.length === 0) {
    body = (
      <div className="card border border-dashed border-base-300">
        <div className="card-body items-center text-center">
          <Users aria-hidden size={40} className="text-base-content/60" />
          <p className="text-lg">No co-parents have been invited yet</p>
          <Button onClick={onInviteNow}>
            <UserPlus aria-hidden size={18} /> Invite Now
          </Button>
        </div>
      </div>
    );
  } else {
    body = (
      <ul className="grid gap-3" aria-label="Co-parents">
        {coParents.map((c) => (
          <li key={c.id}>
            <CoParentCard coParent={c} now={now} onRemove={() => removal.ask(c)} />
          </li>
        ))}
      </ul>
    );
  }

  return (
    <>
      {body}
      <ConfirmDialog
        {...removal.dialog}
        title="Remove co-parent?"
        message={removeMessage}
        detail={
          removing
            ? `${removing.name}'s link and PIN stop working at once, and any open view of your family closes.`
            : undefined
        }
        confirmLabel="Remove"
      />
    </>
  );
}
