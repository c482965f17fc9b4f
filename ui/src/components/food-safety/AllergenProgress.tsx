import type { AllergenIntro } from '../../hooks/useChildren';
import { formatDate } from '../../lib/dates';

type State = AllergenIntro['allergens'][number]['state'];

/** Each state's words and badge. */
const STATE: Record<State, { label: string; badge: string }> = {
  notStarted: { label: 'Not started', badge: 'badge-ghost' },
  started: { label: 'Started', badge: 'badge-info' },
  regular: { label: 'Regular', badge: 'badge-success' },
  lapsed: { label: 'Lapsed', badge: 'badge-warning' },
  reaction: { label: 'Reaction: stop and see a doctor', badge: 'badge-error' },
  avoid: { label: 'Allergy: avoid', badge: 'badge-error badge-soft' },
};

const day = (iso: string) => formatDate(iso, 'medium');

/** "today", "yesterday", "9 days ago". */
const ago = (days: number | null | undefined) =>
  !days ? 'today' : days === 1 ? 'yesterday' : `${days} days ago`;

/**
 * The allergens of the list as progress, in the server's states: how often each was given out
 * of the times that make it regular, and when last. Read-only: the parent's page and the
 * co-parent's view show the same.
 */
export function AllergenProgress({ intro }: { intro: AllergenIntro }) {
  const goal = intro.regularTimes;
  const regular = intro.allergens.filter((a) => a.state === 'regular').length;
  const counted = intro.allergens.filter((a) => a.state !== 'avoid').length;
  return (
    <div className="mt-6">
      <p className="text-sm text-base-content/70">
        {regular} of {counted} in the diet regularly ({goal} times, and again every{' '}
        {intro.keepUpDays} days)
      </p>
      <ul className="mt-3 space-y-2" aria-label={`Allergens for ${intro.childName}`}>
        {intro.allergens.map((a) => (
          <li
            key={a.allergen}
            className="flex flex-wrap items-center gap-x-3 gap-y-1 rounded-box border border-base-300 bg-base-100 p-3"
          >
            <span className="min-w-32 flex-1 font-medium">{a.label}</span>
            <span className={`badge h-auto min-h-5 py-0.5 ${STATE[a.state].badge}`}>
              {STATE[a.state].label}
            </span>
            {a.state !== 'avoid' ? (
              <progress
                className="progress progress-primary w-24"
                value={Math.min(a.times, goal)}
                max={goal}
                aria-label={`${a.label}: given ${a.times} ${a.times === 1 ? 'time' : 'times'}`}
              />
            ) : null}
            <span className="w-full text-xs text-base-content/70 sm:w-auto">
              {a.lastGiven
                ? `${a.times} ${a.times === 1 ? 'time' : 'times'} · first ${day(a.firstGiven ?? a.lastGiven)} · last ${day(a.lastGiven)} (${ago(a.daysSinceLast)})`
                : 'Not given yet'}
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
