import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router-dom';

import { ApiFailure } from '../api/client';
import { AuthCard } from '../components/auth/AuthCard';
import { GroceryListCard } from '../components/grocery/GroceryListCard';
import { FoodBadges } from '../components/meals/FoodBadges';
import { MealSafety } from '../components/meals/MealSafety';
import { AllergenProgress } from '../components/food-safety/AllergenProgress';
import { PlanWarnings } from '../components/plan/PlanWarnings';
import { Button } from '../components/ui/Button';
import { Spinner } from '../components/ui/Spinner';
import {
  shareActions,
  useForgetShare,
  useShareAllergens,
  useShareChildren,
  useShareEvents,
  useShareGroceries,
  useShareMealPlan,
  useShareMeals,
  useShareSession,
  useShareToken,
  type SharedMeal,
} from '../hooks/useShare';
import { useSite } from '../hooks/useSite';
import { byDay, fullDate, mealTypeEmoji, timeOf } from '../lib/coParents';
import { byDay as planByDay, forWhom } from '../lib/mealPlan';
import { feedbackLabel, mealTypeLabel, moodEmoji, moodLabel, portionLabel } from '../lib/meals';
import { dayLabel, daysOf, weekLabel, weekOf } from '../lib/week';
import { pathTo, routes } from '../routes';

type Tab = 'meals' | 'groceries';

/** A co-parent's tick is sent at once (no offline queue on this screen). */
const NOTHING_PENDING: ReadonlySet<string> = new Set();

/**
 * `/co-parent/dashboard/:token`: what a co-parent sees (spec section 2): 'Viewing as', Logout,
 * and two tabs, Meal Tracker (with this week's plan, read only) and Grocery List (ticks only).
 * Live through the family's change feed as a co-parent may see it.
 */
export default function CoParentDashboard() {
  const { t } = useTranslation();
  const token = useShareToken();
  const session = useShareSession(token);
  const navigate = useNavigate();
  const forget = useForgetShare(token);
  const [tab, setTab] = useState<Tab>('meals');
  const [leaving, setLeaving] = useState(false);
  const live = Boolean(session.data);
  useShareEvents(token, live);

  if (session.isLoading) return <Spinner label={t('coParents.dashboard.loading')} />;
  if (session.error || !session.data) return <NoAccess token={token} error={session.error} />;

  const tabs = [
    ['meals', t('coParents.dashboard.tabs.meals')],
    ['groceries', t('coParents.dashboard.tabs.groceries')],
  ] as const;

  const logout = async () => {
    setLeaving(true);
    try {
      await shareActions.signOut(token);
    } catch {
      // The session may already be over; the page still leaves it.
    }
    await forget();
    navigate(pathTo(routes.coParentAccept, { token }), { replace: true });
  };

  return (
    <section className="mx-auto flex max-w-5xl flex-col gap-4 px-4 py-6">
      <header className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-2xl font-bold">
          {t('coParents.dashboard.viewingAs', { name: session.data.name })}
        </h1>
        <Button
          variant="outline"
          busy={leaving}
          busyLabel={t('coParents.dashboard.loggingOut')}
          onClick={() => void logout()}
        >
          {t('coParents.dashboard.logout')}
        </Button>
      </header>
      <div
        role="tablist"
        aria-label={t('coParents.dashboard.views')}
        className="tabs-boxed tabs w-fit"
      >
        {tabs.map(([id, label]) => (
          <button
            key={id}
            type="button"
            role="tab"
            id={`tab-${id}`}
            aria-selected={tab === id}
            aria-controls={`panel-${id}`}
            className={`tab ${tab === id ? 'tab-active' : 'text-base-content/80'}`}
            onClick={() => setTab(id)}
          >
            {label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`panel-${tab}`} aria-labelledby={`tab-${tab}`}>
        {tab === 'meals' ? <Meals token={token} /> : <Groceries token={token} />}
      </div>
    </section>
  );
}

/** `/co-parent/dashboard` without its token (spec section 8). */
export function CoParentDashboardWithoutToken() {
  const { t } = useTranslation();
  return (
    <AuthCard title={t('coParents.dashboard.noAccessTitle')}>
      <p role="alert">{t('coParents.dashboard.missingToken')}</p>
      <Link to={routes.home} className="btn btn-primary">
        {t('auth.goHome')}
      </Link>
    </AuthCard>
  );
}

/** The spec's dashboard texts (section 8) for a browser without a live session. */
function NoAccess({ token, error }: { token: string; error: ApiFailure | undefined }) {
  const { t } = useTranslation();
  const status = error?.status;
  const expiredSession = status === 401;
  const message = expiredSession
    ? t('coParents.dashboard.sessionExpired')
    : status === 404
      ? t('errors.unauthorized')
      : status === 410
        ? t('coParents.accept.expired')
        : t('coParents.dashboard.loadError');
  return (
    <AuthCard
      title={t(
        expiredSession
          ? 'coParents.dashboard.sessionExpiredTitle'
          : 'coParents.dashboard.noAccessTitle',
      )}
    >
      <p role="alert">{message}</p>
      {expiredSession ? (
        <Link to={pathTo(routes.coParentAccept, { token })} className="btn btn-primary">
          {t('coParents.dashboard.enterPin')}
        </Link>
      ) : (
        <Link to={routes.home} className="btn btn-primary">
          {t('auth.goHome')}
        </Link>
      )}
    </AuthCard>
  );
}

function Meals({ token }: { token: string }) {
  const { t } = useTranslation();
  const children = useShareChildren(token, true);
  const [childId, setChildId] = useState<string | null>(null);
  const list = children.data ?? [];
  const chosen = childId ?? list[0]?.id ?? null;
  const meals = useShareMeals(token, chosen, chosen !== null);
  const names = new Map(list.map((c) => [c.id, c.name]));

  if (children.isLoading) return <Spinner label={t('coParents.dashboard.loading')} />;
  if (children.error) return <p role="alert">{t('coParents.dashboard.loadError')}</p>;
  if (list.length === 0) {
    return <p className="text-base-content/70">{t('coParents.dashboard.noChildren')}</p>;
  }

  return (
    <div className="flex flex-col gap-6">
      <div
        role="group"
        aria-label={t('coParents.dashboard.children')}
        className="flex flex-wrap gap-2"
      >
        {list.map((c) => (
          <button
            key={c.id}
            type="button"
            aria-pressed={c.id === chosen}
            // A long name wraps inside the screen's width (a button keeps its text on one line).
            className={`btn btn-sm h-auto min-h-8 max-w-full py-1 ${c.id === chosen ? 'btn-primary' : 'btn-outline'}`}
            onClick={() => setChildId(c.id)}
          >
            {c.name}
          </button>
        ))}
      </div>
      <WeekPlan token={token} names={names} />
      <SharedAllergens token={token} childId={chosen} />
      {meals.isLoading ? (
        <Spinner label={t('coParents.dashboard.loading')} />
      ) : meals.error ? (
        <p role="alert">{t('coParents.dashboard.loadError')}</p>
      ) : (meals.data?.items.length ?? 0) === 0 ? (
        <p className="text-base-content/70">{t('coParents.dashboard.noMeals')}</p>
      ) : (
        byDay(meals.data?.items ?? []).map(({ day, meals: ofDay }) => (
          <section key={day} aria-label={fullDate(day)} className="flex flex-col gap-3">
            <h2 className="text-lg font-semibold">{fullDate(day)}</h2>
            <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-3">
              {ofDay.map((meal) => (
                <SharedMealCard key={meal.id} meal={meal} childName={names.get(meal.childId)} />
              ))}
            </div>
          </section>
        ))
      )}
    </div>
  );
}

/** A meal as the spec's co-parent card shows it: read only, the photo as a link. */
/** The chosen child's allergen introduction, as the parents see it, read only. */
function SharedAllergens({ token, childId }: { token: string; childId: string | null }) {
  const { t } = useTranslation();
  const { data } = useShareAllergens(token, childId);
  if (!data) return null;
  return (
    <details className="card border border-base-300 bg-base-100">
      <summary className="cursor-pointer p-4 text-lg font-semibold">
        {t('coParents.dashboard.allergensOf', { name: data.childName })}
      </summary>
      <div className="px-4 pb-4">
        {data.next ? (
          <p>{t('coParents.dashboard.nextToTry', { allergen: data.next.label })}</p>
        ) : null}
        <AllergenProgress intro={data} />
        <p className="mt-3 text-sm text-base-content/70">{t('coParents.dashboard.notMedical')}</p>
      </div>
    </details>
  );
}

function SharedMealCard({ meal, childName }: { meal: SharedMeal; childName: string | undefined }) {
  const { t } = useTranslation();
  const feedback = feedbackLabel(meal.feedback);
  const child = childName ?? t('coParents.dashboard.unknownChild');
  const mealType = mealTypeLabel(meal.mealType);
  return (
    <article
      className="card border border-base-300 bg-base-100"
      aria-label={t('coParents.dashboard.mealOf', { mealType, child })}
    >
      <div className="card-body gap-2 p-4">
        <p className="font-semibold">
          <span aria-hidden>{mealTypeEmoji(meal.mealType)}</span> {mealType}
          <span className="font-normal text-base-content/70"> · {timeOf(meal.mealDate)}</span>
        </p>
        <p className="text-sm">{child}</p>
        <FoodBadges foods={meal.foods} />
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-base-content/70">{t('coParents.dashboard.portion')}</dt>
          <dd>{portionLabel(meal.portion)}</dd>
          <dt className="text-base-content/70">{t('coParents.dashboard.mood')}</dt>
          <dd>
            <span aria-hidden>{moodEmoji(meal.mood)}</span> {moodLabel(meal.mood)}
          </dd>
          {feedback ? (
            <>
              <dt className="text-base-content/70">{t('coParents.dashboard.feedback')}</dt>
              <dd>{feedback}</dd>
            </>
          ) : null}
          {meal.notes ? (
            <>
              <dt className="text-base-content/70">{t('coParents.dashboard.notes')}</dt>
              <dd className="wrap-anywhere">{meal.notes}</dd>
            </>
          ) : null}
        </dl>
        <MealSafety meal={meal} />
        {meal.photoUrl ? (
          <a
            href={meal.mediumUrl ?? meal.photoUrl}
            target="_blank"
            rel="noreferrer"
            className="link link-primary text-sm"
          >
            {t('coParents.dashboard.viewPhoto')}
          </a>
        ) : (
          <p className="text-sm text-base-content/70">{t('coParents.dashboard.noPhoto')}</p>
        )}
      </div>
    </article>
  );
}

/** This week's plan, read only. */
function WeekPlan({ token, names }: { token: string; names: ReadonlyMap<string, string> }) {
  const { t } = useTranslation();
  const week = weekOf(new Date());
  const plan = useShareMealPlan(token, week, true);
  const entries = plan.data?.entries ?? [];
  if (plan.isLoading || plan.error || entries.length === 0) return null;
  return (
    <section
      aria-label={t('coParents.dashboard.weekPlan')}
      className="card border border-base-300 bg-base-100"
    >
      <div className="card-body gap-2 p-4">
        <h2 className="text-lg font-semibold">{t('coParents.dashboard.weekPlan')}</h2>
        <p className="text-sm text-base-content/70">{weekLabel(week)}</p>
        <ul className="flex flex-col gap-2">
          {planByDay(daysOf(week), entries)
            .filter((d) => d.entries.length > 0)
            .map(({ day, entries: ofDay }) => (
              <li key={day}>
                <p className="font-medium">{dayLabel(day)}</p>
                <ul className="ml-4 list-disc text-sm">
                  {ofDay.map((e) => (
                    <li key={e.id} className="wrap-anywhere">
                      {t('coParents.dashboard.planEntry', {
                        mealType: mealTypeLabel(e.mealType),
                        title: e.title,
                      })}{' '}
                      <span className="text-base-content/70">({forWhom(e.childIds, names)})</span>
                      <PlanWarnings
                        warnings={(plan.data?.warnings ?? []).filter((w) => w.entryId === e.id)}
                      />
                    </li>
                  ))}
                </ul>
              </li>
            ))}
        </ul>
      </div>
    </section>
  );
}

function Groceries({ token }: { token: string }) {
  const { t } = useTranslation();
  const { lists, tick } = useShareGroceries(token);
  const site = useSite();
  const currency = site.data?.currency ?? 'GBP';

  if (lists.isLoading) return <Spinner label={t('coParents.dashboard.loading')} />;
  if (lists.error) return <p role="alert">{t('coParents.dashboard.loadError')}</p>;
  if ((lists.data?.length ?? 0) === 0) {
    return <p className="text-base-content/70">{t('coParents.dashboard.noLists')}</p>;
  }
  return (
    <div className="grid gap-4 md:grid-cols-2">
      {lists.data?.map((list) => (
        <GroceryListCard
          key={list.id}
          list={list}
          pending={NOTHING_PENDING}
          currency={currency}
          onTick={(item, checked) => void tick(list, item.id, checked)}
        />
      ))}
    </div>
  );
}
