import { ChefHat, ClipboardList, Plus, ShoppingCart } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { greetingName, isNewAccount, useAuth } from '../auth/auth-context';
import { ChildForm } from '../components/children/ChildForm';
import { Modal } from '../components/ui/Modal';
import { Skeleton } from '../components/ui/Skeleton';
import { useAllergens, useChildNames, useChildren, type Child } from '../hooks/useChildren';
import { useMeals } from '../hooks/useMeals';
import { ageLabel, monthsOldLabel, formatShortDate, mealTypeLabel, moodEmoji } from '../lib/meals';
import { initial } from '../lib/text';
import { pathTo, routes } from '../routes';

/** The home's shortcuts; `titleKey` and `textKey` are catalogue keys, read when shown. */
export const featureCards = [
  {
    to: routes.recipes,
    titleKey: 'home.features.recipes.title',
    textKey: 'home.features.recipes.text',
    icon: ChefHat,
  },
  {
    to: routes.mealTracker,
    titleKey: 'home.features.meals.title',
    textKey: 'home.features.meals.text',
    icon: ClipboardList,
  },
  {
    to: routes.groceryList,
    titleKey: 'home.features.grocery.title',
    textKey: 'home.features.grocery.text',
    icon: ShoppingCart,
  },
];

/** The signed-in home, at / and /dashboard. */
export default function Home() {
  const { t } = useTranslation();
  const { state } = useAuth();
  const [adding, setAdding] = useState(false);
  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <div className="flex flex-wrap items-center justify-between gap-4">
        <div>
          {/* 'Welcome back' is for someone who signed in, not an account made a moment ago. */}
          <h1 className="text-3xl font-bold">
            {isNewAccount(state.user)
              ? t('home.welcome', { name: greetingName(state.user) })
              : t('home.welcomeBack', { name: greetingName(state.user) })}
          </h1>
          <p className="mt-1 text-base-content/70">{t('home.question')}</p>
        </div>
        <button type="button" className="btn btn-primary" onClick={() => setAdding(true)}>
          <Plus aria-hidden size={18} /> {t('children.add')}
        </button>
      </div>

      <div className="mt-8 grid gap-4 sm:grid-cols-3">
        {featureCards.map((card) => (
          <Link
            key={card.to}
            to={card.to}
            className="card border border-base-300 bg-base-100 transition hover:border-primary hover:shadow-md"
          >
            <div className="card-body">
              <card.icon aria-hidden className="text-primary" />
              <h2 className="card-title">{t(card.titleKey)}</h2>
              <p className="text-base-content/80">{t(card.textKey)}</p>
            </div>
          </Link>
        ))}
      </div>

      <YourChildren />
      <RecentMeals />

      <Modal open={adding} title={t('children.add')} onClose={() => setAdding(false)} wide>
        <ChildForm onDone={() => setAdding(false)} onCancel={() => setAdding(false)} />
      </Modal>
    </section>
  );
}

/** Allergen introduction matters while a child is small: under 3 by birth month or age. */
const isWeaningAge = (child: Child) =>
  child.monthsOld != null ? child.monthsOld < 36 : child.age != null && child.age < 3;

/**
 * A nudge when an allergen the child has had is not given any more: introduced allergens are
 * kept in the diet by giving them about weekly (the allergen page says why).
 */
function LapsedNudge({ childId }: { childId: string }) {
  const { t } = useTranslation();
  const { data } = useAllergens(childId);
  const lapsed = data?.allergens.filter((a) => a.state === 'lapsed') ?? [];
  if (lapsed.length === 0) return null;
  return (
    <Link
      to={pathTo(routes.childAllergens, { id: childId })}
      className="link text-sm text-warning-content"
    >
      {t('home.lapsed', {
        allergens: lapsed.map((a) => a.label).join(', '),
        count: data?.keepUpDays ?? 0,
      })}
    </Link>
  );
}

function YourChildren() {
  const { t } = useTranslation();
  const { data: children, isLoading } = useChildren();
  return (
    <section className="mt-12" aria-labelledby="your-children">
      <h2 id="your-children" className="text-2xl font-bold">
        {t('home.yourChildren')}
      </h2>
      {isLoading ? <Skeleton label={t('children.loading')} cards={2} /> : null}
      {children && children.length === 0 ? (
        <p className="mt-4 text-base-content/70">{t('home.noChildren')}</p>
      ) : null}
      {/* One column that may shrink on a phone: the cards' width is the screen's, not the name's. */}
      <ul
        className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3"
        aria-label={t('home.yourChildrenLabel')}
      >
        {children?.map((child) => (
          <li key={child.id} className="card min-w-0 border border-base-300 bg-base-100">
            {/* The button drops below the name when the two do not fit side by side, so the
                age is not squeezed onto three lines beside it ("7 Monate alt" at 320 px). */}
            <div className="card-body flex-row flex-wrap items-center gap-4">
              <span
                className="flex h-12 w-12 shrink-0 items-center justify-center rounded-full bg-primary text-xl font-bold text-primary-content"
                aria-hidden
              >
                {initial(child.name)}
              </span>
              <div className="min-w-0 grow">
                <p className="truncate font-semibold">{child.name}</p>
                {monthsOldLabel(child.monthsOld) ? (
                  <p className="text-sm text-base-content/70">{monthsOldLabel(child.monthsOld)}</p>
                ) : child.age != null ? (
                  <p className="text-sm text-base-content/70">{ageLabel(child.age)}</p>
                ) : null}
                {isWeaningAge(child) ? <LapsedNudge childId={child.id} /> : null}
              </div>
              <Link
                to={routes.children}
                className="btn btn-ghost btn-sm ml-auto shrink-0"
                aria-label={t('home.viewProfileOf', { name: child.name })}
              >
                {t('home.viewProfile')}
              </Link>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function RecentMeals() {
  const { t } = useTranslation();
  const { meals, isLoading } = useMeals(null, 5);
  const { data: children } = useChildren();
  const names = useChildNames(children);
  const recent = meals.slice(0, 5);
  return (
    <section className="mt-12" aria-labelledby="recent-meals">
      <div className="flex items-center justify-between">
        <h2 id="recent-meals" className="text-2xl font-bold">
          {t('home.recentMeals')}
        </h2>
        <Link to={routes.mealTracker} className="link link-primary">
          {t('home.startTracking')}
        </Link>
      </div>
      {isLoading ? <Skeleton label={t('meals.loading')} /> : null}
      {!isLoading && recent.length === 0 ? (
        <p className="mt-4 text-base-content/70">{t('home.noRecentMeals')}</p>
      ) : null}
      <ul
        className="mt-4 divide-y divide-base-300 rounded-box border border-base-300 bg-base-100"
        aria-label={t('home.recentMealsLabel')}
      >
        {recent.map((meal) => (
          <li key={meal.id} className="flex items-center gap-3 p-3">
            <span className="text-2xl" aria-hidden>
              {moodEmoji(meal.mood)}
            </span>
            <div className="min-w-0 flex-1">
              <p className="font-medium">
                {names.get(meal.childId) ?? t('meals.unknownChild')} ·{' '}
                {mealTypeLabel(meal.mealType)}
              </p>
              <p className="truncate text-sm text-base-content/70">{meal.foods.join(', ')}</p>
            </div>
            <span className="shrink-0 text-sm text-base-content/70">
              {formatShortDate(meal.mealDate)}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
