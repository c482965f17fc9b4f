import i18n from 'i18next';
import { useTranslation } from 'react-i18next';

import type { AllergenIntro } from '../../hooks/useChildren';
import { formatDate } from '../../lib/dates';

type State = AllergenIntro['allergens'][number]['state'];

/** Each state's words (a catalogue key) and badge. */
const STATE: Record<State, { labelKey: string; badge: string }> = {
  notStarted: { labelKey: 'foodSafety.progress.state.notStarted', badge: 'badge-ghost' },
  started: { labelKey: 'foodSafety.progress.state.started', badge: 'badge-info' },
  regular: { labelKey: 'foodSafety.progress.state.regular', badge: 'badge-success' },
  lapsed: { labelKey: 'foodSafety.progress.state.lapsed', badge: 'badge-warning' },
  reaction: { labelKey: 'foodSafety.progress.state.reaction', badge: 'badge-error' },
  avoid: { labelKey: 'foodSafety.progress.state.avoid', badge: 'badge-error badge-soft' },
};

const day = (iso: string) => formatDate(iso, 'medium');

/** "today", "yesterday", "9 days ago". */
const ago = (days: number | null | undefined) =>
  !days
    ? i18n.t('foodSafety.progress.today')
    : days === 1
      ? i18n.t('foodSafety.progress.yesterday')
      : i18n.t('foodSafety.progress.daysAgo', { count: days });

/**
 * The allergens of the list as progress, in the server's states: how often each was given out
 * of the times that make it regular, and when last. Read-only: the parent's page and the
 * co-parent's view show the same.
 */
export function AllergenProgress({ intro }: { intro: AllergenIntro }) {
  const { t } = useTranslation();
  const goal = intro.regularTimes;
  const regular = intro.allergens.filter((a) => a.state === 'regular').length;
  const counted = intro.allergens.filter((a) => a.state !== 'avoid').length;
  return (
    <div className="mt-6">
      <p className="text-sm text-base-content/70">
        {t('foodSafety.progress.summary', {
          regular,
          counted,
          goal,
          days: intro.keepUpDays,
        })}
      </p>
      <ul
        className="mt-3 space-y-2"
        aria-label={t('foodSafety.progress.listLabel', { name: intro.childName })}
      >
        {intro.allergens.map((a) => (
          <li
            key={a.allergen}
            className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-box border border-base-300 bg-base-100 p-3"
          >
            <span className="min-w-32 flex-1 font-medium">{a.label}</span>
            <span className={`badge h-auto min-h-5 py-0.5 ${STATE[a.state].badge}`}>
              {t(STATE[a.state].labelKey)}
            </span>
            {a.state !== 'avoid' ? (
              <progress
                className="progress progress-primary w-24"
                value={Math.min(a.times, goal)}
                max={goal}
                aria-label={t('foodSafety.progress.given', { label: a.label, count: a.times })}
              />
            ) : null}
            <span className="w-full text-xs text-base-content/70 sm:w-auto">
              {a.lastGiven
                ? t('foodSafety.progress.history', {
                    count: a.times,
                    first: day(a.firstGiven ?? a.lastGiven),
                    last: day(a.lastGiven),
                    ago: ago(a.daysSinceLast),
                  })
                : t('foodSafety.progress.notGiven')}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
