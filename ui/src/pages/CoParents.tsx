import { Info } from 'lucide-react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

import { useAuth } from '../auth/auth-context';
import { CoParentList } from '../components/co-parents/CoParentList';
import { InviteCoParent } from '../components/co-parents/InviteCoParent';
import { LINK_DAYS, PIN_LENGTH } from '../lib/coParents';

/** `/co-parent`: Co-Parent Management, the invite form and the co-parents (spec section 2). */
export default function CoParents() {
  const { t } = useTranslation();
  const { state } = useAuth();
  const nameField = useRef<HTMLInputElement>(null);
  const guest = state.user?.isGuest ?? false;

  return (
    <section className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-bold">{t('coParents.page.title')}</h1>
      <p className="mt-2 text-base-content/80">{t('coParents.page.intro')}</p>
      <div className="mt-6 grid gap-6 lg:grid-cols-[2fr_3fr]">
        <div className="space-y-6">
          <AboutCoParents />
          <section
            className="card border border-base-300 bg-base-100"
            aria-labelledby="invite-title"
          >
            <div className="card-body gap-4 p-4 sm:p-6">
              <h2 id="invite-title" className="card-title">
                {t('coParents.page.inviteTitle')}
              </h2>
              {guest ? <p>{t('coParents.page.guest')}</p> : <InviteCoParent nameRef={nameField} />}
            </div>
          </section>
        </div>
        {/* A guest's family shares nothing, so it has no co-parents. */}
        {guest ? null : (
          <section aria-labelledby="co-parents-title">
            <h2 id="co-parents-title" className="mb-3 text-xl font-bold">
              {t('coParents.page.listTitle')}
            </h2>
            <CoParentList
              removeMessage={t('coParents.page.removeMessage')}
              onInviteNow={() => nameField.current?.focus()}
            />
          </section>
        )}
      </div>
    </section>
  );
}

/** The info box: what a co-parent gets, and what not. */
function AboutCoParents() {
  const { t } = useTranslation();
  return (
    <aside
      className="rounded-box border border-info/30 bg-info/10 p-4 text-sm"
      aria-labelledby="about-co-parents"
    >
      <h2 id="about-co-parents" className="flex items-center gap-2 text-base font-semibold">
        <Info aria-hidden size={18} /> {t('coParents.about.title')}
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        <li>{t('coParents.about.noAccount')}</li>
        <li>{t('coParents.about.link', { count: LINK_DAYS })}</li>
        <li>{t('coParents.about.pin', { length: PIN_LENGTH })}</li>
        <li>{t('coParents.about.can')}</li>
        <li>{t('coParents.about.cannot')}</li>
      </ul>
    </aside>
  );
}
