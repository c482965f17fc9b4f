import { ArrowLeft, TriangleAlert } from 'lucide-react';
import { useDeferredValue, useMemo, useState } from 'react';
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
        <ArrowLeft aria-hidden size={16} /> Children
      </Link>
      <h1 className="mt-2 wrap-anywhere text-3xl font-bold">
        {name ? `${name}'s food history` : 'Food history'}
      </h1>
      <Link to={pathTo(routes.childAllergens, { id })} className="link text-sm">
        Allergen introduction
      </Link>
      {error ? (
        <p className="mt-6 text-error">Error fetching food history</p>
      ) : !data ? (
        <div className="mt-6 min-h-dvh space-y-3" aria-busy="true" aria-label="Loading foods">
          <div className="skeleton h-6 w-48" />
          <div className="skeleton h-20 w-full" />
          <div className="skeleton h-20 w-full" />
        </div>
      ) : data.foods.length === 0 ? (
        <div className="mt-10 text-center">
          <p className="text-lg font-medium">No foods yet</p>
          <p className="text-base-content/70">
            Meals you record for {name ?? 'this child'} show up here, food by food.
          </p>
        </div>
      ) : (
        <>
          <p className="mt-1 text-base-content/70">
            {data.foods.length} {data.foods.length === 1 ? 'food' : 'foods'} tried ·{' '}
            {data.newThisWeek} new this week
          </p>
          <div className="mt-4">
            <Input
              label="Search foods"
              type="search"
              value={query}
              onChange={(e) => setQuery(e.target.value)}
            />
          </div>
          {foods.length === 0 ? <p className="mt-6">No food matches “{query.trim()}”.</p> : null}
          <ul className="mt-4 space-y-3" aria-label="Foods">
            {foods.map((f) => (
              <li key={f.name} className="card border border-base-300 bg-base-100">
                <div className="card-body gap-2 p-4">
                  <div className="flex flex-wrap items-center gap-2">
                    <h2 className="min-w-0 wrap-anywhere text-lg font-semibold">{f.name}</h2>
                    {f.isNew ? <span className="badge badge-primary">New</span> : null}
                    {f.exposures > 0 ? (
                      <span className="badge badge-warning">
                        <TriangleAlert aria-hidden size={14} /> Allergen exposure
                        {f.exposures > 1 ? ` ×${f.exposures}` : ''}
                      </span>
                    ) : null}
                    <span className="ml-auto" role="img" aria-label={liking(f).label}>
                      {liking(f).emoji}
                    </span>
                  </div>
                  <p className="text-sm text-base-content/80">
                    First tried {day(f.firstTried)} · {f.times} {f.times === 1 ? 'time' : 'times'} ·
                    last {day(f.lastEaten)} · {liking(f).label}
                  </p>
                  {f.reactions.length > 0 ? (
                    <ul className="text-sm" aria-label={`Reactions to ${f.name}`}>
                      {f.reactions.map((r) => (
                        <li key={r.at} className="text-error">
                          {r.reaction === 'severe' ? 'Severe' : 'Mild'} reaction on {day(r.at)}
                          {r.note ? `: ${r.note}` : ''}
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
