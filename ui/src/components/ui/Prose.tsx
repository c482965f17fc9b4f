import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { formatDay } from '../../lib/dates';

/** Layout for the text pages (about, privacy, terms). */
export function Prose({
  title,
  updated,
  children,
}: {
  title: string;
  /** The day the text last changed (YYYY-MM-DD), shown in the reader's language. */
  updated?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <article className="mx-auto max-w-3xl px-4 py-12">
      <h1 className="text-3xl font-bold md:text-4xl">{title}</h1>
      {updated ? (
        <p className="mt-2 text-sm text-base-content/70">
          {t('ui.prose.lastUpdated', { date: formatDay(updated, 'medium') })}
        </p>
      ) : null}
      <div className="mt-8 space-y-6 leading-relaxed [&_h2]:mt-10 [&_h2]:text-xl [&_h2]:font-bold [&_li]:ml-6 [&_li]:list-disc [&_ul]:space-y-2">
        {children}
      </div>
    </article>
  );
}

/** The date both policy pages carry (spec section 2: May 20, 2025), as a calendar day. */
export const POLICY_DATE = '2025-05-20';
