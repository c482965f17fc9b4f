import { Info } from 'lucide-react';
import { useRef } from 'react';

import { useAuth } from '../auth/auth-context';
import { CoParentList } from '../components/co-parents/CoParentList';
import { InviteCoParent } from '../components/co-parents/InviteCoParent';
import { LINK_DAYS } from '../lib/coParents';

/** `/co-parent`: Co-Parent Management, the invite form and the co-parents (spec section 2). */
export default function CoParents() {
  const { state } = useAuth();
  const nameField = useRef<HTMLInputElement>(null);
  const guest = state.user?.isGuest ?? false;

  return (
    <section className="mx-auto max-w-5xl px-4 py-10">
      <h1 className="text-3xl font-bold">Co-Parent Management</h1>
      <p className="mt-2 text-base-content/80">
        Give the children&apos;s other parent, a grandparent or a childminder a limited view of your
        family.
      </p>
      <div className="mt-6 grid gap-6 lg:grid-cols-[2fr_3fr]">
        <div className="space-y-6">
          <AboutCoParents />
          <section
            className="card border border-base-300 bg-base-100"
            aria-labelledby="invite-title"
          >
            <div className="card-body gap-4 p-4 sm:p-6">
              <h2 id="invite-title" className="card-title">
                Invite a Co-Parent
              </h2>
              {guest ? (
                <p>Guests cannot invite co-parents. Sign up for an account to share your family.</p>
              ) : (
                <InviteCoParent nameRef={nameField} />
              )}
            </div>
          </section>
        </div>
        {/* A guest's family shares nothing, so it has no co-parents. */}
        {guest ? null : (
          <section aria-labelledby="co-parents-title">
            <h2 id="co-parents-title" className="mb-3 text-xl font-bold">
              Co-Parents
            </h2>
            <CoParentList
              removeMessage="Are you sure you want to remove this co-parent? They will lose all access."
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
  return (
    <aside
      className="rounded-box border border-info/30 bg-info/10 p-4 text-sm"
      aria-labelledby="about-co-parents"
    >
      <h2 id="about-co-parents" className="flex items-center gap-2 text-base font-semibold">
        <Info aria-hidden size={18} /> How co-parent access works
      </h2>
      <ul className="mt-2 list-disc space-y-1 pl-5">
        <li>Co-parents don&apos;t need a full account.</li>
        <li>
          They get a link that works for a limited time ({LINK_DAYS} days; you can extend it).
        </li>
        <li>They create a 6-digit PIN to open it.</li>
        <li>
          They can view meal history and shared grocery lists, and tick items off the grocery lists.
        </li>
        <li>They cannot edit child profiles or account settings.</li>
      </ul>
    </aside>
  );
}
