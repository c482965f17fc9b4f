import { ArrowLeft, TriangleAlert } from 'lucide-react';
import { useDeferredValue, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';

import { ApiFailure } from '../api/client';
import { ChildNotFound } from '../components/children/ChildNotFound';
import { Input } from '../components/ui/Input';
import { useChildren, useFoodHistory, type FoodHistory as History } from '../hooks/useChildren';
import { formatDate } from '../lib/dates';
import { likingMood, moodEmoji, moodLabel } from '../lib/meals';
import { pathTo, routes } from '../routes';

type Food = History['foods'][number];

/** The meal cards' words and emoji for how a food went (lib/meals). */
const liking = (f: Food) => ({
  label: moodLabel(likingMood(f.liking)),
  emoji: moodEmoji(likingMood(f.liking)),
});

const day = (iso: string) => formatDate(iso, 'medium');

/** `/children/:id/foods`: every food the child has had, what weaning parents ask for. */
export default function FoodHistory() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { data: children } = useChildren();
  const { data: fetched, error } = useFoodHistory(id);
  // The foods first appear in a background render React does in small steps: thirty cards
  // rendered at once kept a phone from answering a tap for a moment (Lighthouse's blocking time).
  const ready = useDeferredValue(fetched !== undefined);
  const data = ready ? fetched : undefined;
  const [query, setQuery] = useState('');
  const name = children?.find((c) => c.id === id)?.name;
  const foods = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (data?.foods ?? []).filter((f) => !q || f.name.toLowerCase().includes(q));
  }, [data, query]);

  // No such child in this family (removed, or a mistyped link): say so, and the way back.
  if (error instanceof ApiFailure && error.status === 404) {
    return <ChildNotFound />;
  }

  return (
    <section className="mx-auto max-w-3xl px-4 py-10">
      <Link to={routes.children} className="btn btn-ghost btn-sm -ml-2">
        <ArrowLeft aria-hidden size={16} /> {t('children.title')}
      </Link>
      <h1 className="mt-2 wrap-anywhere text-3xl font-bold">
        {name ? t('children.foodHistory.titleOf', { name }) : t('children.foodHistory.title')}
      </h1>
      <Link to={pathTo(routes.childAllergens, { id })} className="link text-sm">
        {t('foodSafety.intro.title')}
      </Link>
      {error ? (
        <p className="mt-6 text-error">{t('children.foodHistory.fetchError')}</p>
      ) : !data ? (
        <div
          className="mt-6 min-h-dvh space-y-3"
          aria-busy="true"
          aria-label={t('children.foodHistory.loading')}
        >
          <div className="skeleton h-6 w-48" />
          <div className="skeleton h-20 w-full" />
          <div className="skeleton h-20 w-full" />
        </div>
      ) : data.foods.length === 0 ? (
        <div className="mt-10 text-center">
          <p className="text-lg font-medium">{t('children.foodHistory.empty')}</p>
          <p className="text-base-content/70">
            {name
              ? t('children.foodHistory.emptyTextOf', { name })
              : t('children.foodHistory.emptyText')}
          </p>
        </div>
      ) : (
        <>
          <p className="mt-1 text-base-content/70">
            {t('children.foodHistory.tried', { count: data.foods.length })} ·{' '}
            {t('children.foodHistory.newThisWeek', { count: data.newThisWeek })}
          </p>
          <div className="mt-4">
            <Input
              label={t('children.foodHistory.search')}
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
          </div>
          {foods.length === 0 ? (
            <p className="mt-6">{t('children.foodHistory.noMatch', { query: query.trim() })}</p>
          ) : null}
          <ul className="mt-4 space-y-3" aria-label={t('meals.foods')}>
            {foods.map((f) => (
              <li key={f.name} className="card border border-base-300 bg-base-100">
                <div className="card-body gap-2 p-4">
                  <div className="flex flex-wrap items-center gap-2">
                    <h2 className="min-w-0 wrap-anywhere text-lg font-semibold">{f.name}</h2>
                    {f.isNew ? (
                      <span className="badge badge-primary">{t('children.foodHistory.new')}</span>
                    ) : null}
                    {f.exposures > 0 ? (
                      <span className="badge badge-warning">
                        <TriangleAlert aria-hidden size={14} /> {t('meals.exposure')}
                        {f.exposures > 1 ? ` ×${f.exposures}` : ''}
                      </span>
                    ) : null}
                    <span className="ml-auto" role="img" aria-label={liking(f).label}>
                      {liking(f).emoji}
                    </span>
                  </div>
                  <p className="text-sm text-base-content/80">
                    {t('children.foodHistory.summary', {
                      first: day(f.firstTried),
                      count: f.times,
                      last: day(f.lastEaten),
                      liking: liking(f).label,
                    })}
                  </p>
                  {f.reactions.length > 0 ? (
                    <ul
                      className="text-sm"
                      aria-label={t('children.foodHistory.reactionsTo', { food: f.name })}
                    >
                      {f.reactions.map((r) => (
                        <li key={r.at} className="text-error">
                          {r.reaction === 'severe'
                            ? t('children.foodHistory.severeOn', { date: day(r.at) })
                            : t('children.foodHistory.mildOn', { date: day(r.at) })}
                          {r.note ? t('meals.noteAfter', { note: r.note }) : ''}
                        </li>
                      ))}
                    </ul>
                  ) : null}
                </div>
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}
