import { useId, useState } from 'react';
import { Link } from 'react-router-dom';

import { routes } from '../../routes';
import { Modal } from '../ui/Modal';
import { CoParentList } from './CoParentList';
import { InviteCoParent } from './InviteCoParent';

type Tab = 'invite' | 'manage';

const TABS: { id: Tab; label: string }[] = [
  { id: 'invite', label: 'Invite' },
  { id: 'manage', label: 'Manage' },
];

/** The header's Co-Parent Access dialog, with tabs Invite and Manage (spec section 2). */
export function CoParentAccess({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Modal open={open} title="Co-Parent Access" onClose={onClose} wide>
      {/* Mounted only while open: a PIN shown once goes when the dialog closes. */}
      <AccessTabs onClose={onClose} />
    </Modal>
  );
}

function AccessTabs({ onClose }: { onClose: () => void }) {
  const [tab, setTab] = useState<Tab>('invite');
  const id = useId();
  return (
    <div className="space-y-4">
      <p className="text-sm text-base-content/80">
        Co-parents see your children&apos;s meals and your grocery lists through a link and a
        6-digit PIN, without an account.
      </p>
      <div role="tablist" aria-label="Co-Parent Access" className="tabs tabs-box w-fit">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`${id}-${t.id}`}
            aria-controls={`${id}-${t.id}-panel`}
            aria-selected={tab === t.id}
            className={`tab ${tab === t.id ? 'tab-active' : 'text-base-content/80'}`}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </div>
      {/* Both stay mounted: a link or PIN just shown survives a look at the other tab. */}
      <div
        role="tabpanel"
        id={`${id}-invite-panel`}
        aria-labelledby={`${id}-invite`}
        hidden={tab !== 'invite'}
      >
        <InviteCoParent onCancel={onClose} onDone={() => setTab('manage')} />
      </div>
      <div
        role="tabpanel"
        id={`${id}-manage-panel`}
        aria-labelledby={`${id}-manage`}
        hidden={tab !== 'manage'}
      >
        <CoParentList
          removeMessage="Are you sure you want to remove this co-parent?"
          onInviteNow={() => setTab('invite')}
        />
      </div>
      <p className="border-t border-base-300 pt-3 text-sm">
        <Link to={routes.coParent} className="link" onClick={onClose}>
          Manage all co-parents
        </Link>
      </p>
    </div>
  );
}
