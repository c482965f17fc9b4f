import { UserPlus, Users } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ApiFailure } from '../../api/client';
import {
  coParentTitles,
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
  const { t } = useTranslation();
  const { data: coParents, error, isLoading, mutate } = useCoParents();
  const { remove } = useCoParentActions();
  const { toast } = useToast();
  const now = useNow();
  const removal = useConfirmDelete({
    remove: (coParent: CoParent, signal) => remove(coParent.id, signal),
    failureTitle: coParentTitles.remove(),
    done: (coParent) => ({
      title: t('coParents.list.removedTitle'),
      description: t('coParents.list.removed', { name: coParent.name }),
    }),
    onFailure: (err) => {
      const message = err instanceof Error ? err.message : '';
      toast({
        title: coParentTitles.remove(),
        description: message || t('common.unexpectedError'),
      });
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
        : coParentTitles.fetch();
    body = (
      <div role="alert" className="alert alert-error items-start">
        <div className="flex-1">
          <p className="font-semibold">{title}</p>
          <p>{error instanceof Error ? error.message : t('common.unexpectedError')}</p>
        </div>
        <Button variant="ghost" size="sm" onClick={() => void mutate()}>
          {t('common.retry')}
        </Button>
      </div>
    );
  } else if (isLoading || !coParents) {
    body = <Spinner label={t('coParents.list.loading')} />;
  } else if (coParents.length === 0) {
    body = (
      <div className="card border border-dashed border-base-300">
        <div className="card-body items-center text-center">
          <Users aria-hidden size={40} className="text-base-content/60" />
          <p className="text-lg">{t('coParents.list.empty')}</p>
          <Button onClick={onInviteNow}>
            <UserPlus aria-hidden size={18} /> {t('coParents.list.inviteNow')}
          </Button>
        </div>
      </div>
    );
  } else {
    body = (
      <ul className="grid gap-3" aria-label={t('coParents.list.label')}>
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
        title={t('coParents.list.removeTitle')}
        message={removeMessage}
        detail={removing ? t('coParents.list.removeDetail', { name: removing.name }) : undefined}
        confirmLabel={t('common.remove')}
      />
    </>
  );
}
