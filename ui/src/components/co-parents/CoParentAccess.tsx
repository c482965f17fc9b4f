import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { PIN_LENGTH } from '../../lib/coParents';
import { routes } from '../../routes';
import { Modal } from '../ui/Modal';
import { CoParentList } from './CoParentList';
import { InviteCoParent } from './InviteCoParent';

type Tab = 'invite' | 'manage';

/** `labelKey`: the tab's label in the catalogues. */
const TABS: { id: Tab; labelKey: string }[] = [
  { id: 'invite', labelKey: 'coParents.access.invite' },
  { id: 'manage', labelKey: 'coParents.access.manage' },
];

/** The header's Co-Parent Access dialog, with tabs Invite and Manage (spec section 2). */
export function CoParentAccess({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <Modal open={open} title={t('coParents.access.title')} onClose={onClose} wide>
      {/* Mounted only while open: a PIN shown once goes when the dialog closes. */}
      <AccessTabs onClose={onClose} />
    </Modal>
  );
}

function AccessTabs({ onClose }: { onClose: () => void }) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<Tab>('invite');
  const id = useId();
  return (
    <div className="space-y-4">
      <p className="text-sm text-base-content/80">
        {t('coParents.access.intro', { length: PIN_LENGTH })}
      </p>
      <div role="tablist" aria-label={t('coParents.access.title')} className="tabs tabs-box w-fit">
        {TABS.map((entry) => (
          <button
            key={entry.id}
            type="button"
            role="tab"
            id={`${id}-${entry.id}`}
            aria-controls={`${id}-${entry.id}-panel`}
            aria-selected={tab === entry.id}
            className={`tab ${tab === entry.id ? 'tab-active' : 'text-base-content/80'}`}
            onClick={() => setTab(entry.id)}
          >
            {t(entry.labelKey)}
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
          removeMessage={t('coParents.access.removeMessage')}
          onInviteNow={() => setTab('invite')}
        />
      </div>
      <p className="border-t border-base-300 pt-3 text-sm">
        <Link to={routes.coParent} className="link" onClick={onClose}>
          {t('coParents.access.manageAll')}
        </Link>
      </p>
    </div>
  );
}
