import { Plus } from 'lucide-react';
import { useDeferredValue, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { MealCard } from '../components/meals/MealCard';
import { MealForm } from '../components/meals/MealForm';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';
import { Modal } from '../components/ui/Modal';
import { Skeleton } from '../components/ui/Skeleton';
import { useConfirmDelete } from '../components/ui/useConfirmDelete';
import { useChildNames, useChildren } from '../hooks/useChildren';
import { useMealActions, useMeals, type Meal } from '../hooks/useMeals';
import { formatToday, groupByDay } from '../lib/meals';
import { routes } from '../routes';

/**
 * Cards rendered at once when meals arrive (a phone screen of them); the rest follow in a
 * background render.
 */
const FIRST_CARDS = 4;

export default function MealTracker() {
  const { t } = useTranslation();
  const { data: children, isLoading: loadingChildren } = useChildren();
  const [tab, setTab] = useState<string | null>(null);
  const { meals, isLoading, hasMore, loadMore, error } = useMeals(tab);
  // Fifty cards in one go kept a phone from answering a tap for a moment (Lighthouse's blocking
  // time): the first ones show at once, the rest in a render React does in small steps.
  const later = useDeferredValue(meals);
  const shown = later === meals ? meals : meals.slice(0, Math.max(FIRST_CARDS, later.length));
  const { remove } = useMealActions();
  const [recording, setRecording] = useState(false);
  const [editing, setEditing] = useState<Meal | null>(null);
  const formCancel = useRef<(() => void) | null>(null);
  const closeForm = () => {
    setRecording(false);
    setEditing(null);
  };
  const names = useChildNames(children);
  const deletion = useConfirmDelete({
    remove: (meal: Meal, signal) => remove(meal.id, signal),
    failureTitle: t('meals.errors.delete'),
    done: () => ({ title: t('meals.tracker.deleted') }),
    closeOnFailure: true,
  });

  const header = (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-3xl font-bold">{t('meals.tracker.title')}</h1>
        <p className="text-base-content/70">{formatToday()}</p>
      </div>
      {children && children.length > 0 ? (
        <button type="button" className="btn btn-primary" onClick={() => setRecording(true)}>
          <Plus aria-hidden size={18} /> {t('meals.tracker.record')}
        </button>
      ) : null}
    </div>
  );

  if (loadingChildren) {
    return (
      <section className="mx-auto max-w-5xl px-4 py-10">
        {header}
        <Skeleton label={t('children.loading')} />
      </section>
    );
  }

  if (!children || children.length === 0) {
    return (
      <section className="mx-auto max-w-5xl px-4 py-10">
        {header}
        <div className="mt-10 flex flex-col items-center gap-4 text-center">
          <h2 className="text-xl font-semibold">{t('meals.tracker.noChildren')}</h2>
          <p className="text-base-content/70">{t('meals.tracker.noChildrenText')}</p>
          <Link to={routes.children} className="btn btn-primary">
            {t('meals.tracker.addFirstChild')}
          </Link>
        </div>
      </section>
    );
  }

  return (
    <section className="mx-auto max-w-5xl px-4 py-10">
      {header}
      <div
        role="tablist"
        aria-label={t('children.title')}
        className="tabs tabs-box mt-6 flex-nowrap overflow-x-auto"
      >
        {[{ id: null, name: t('meals.tracker.allChildren') }, ...children].map((c) => (
          <button
            key={c.id ?? 'all'}
            type="button"
            role="tab"
            aria-selected={tab === c.id}
            // daisyUI's inactive tab text (half opacity) is too faint to read.
            className={`tab whitespace-nowrap ${tab === c.id ? 'tab-active' : 'text-base-content/80'}`}
            onClick={() => setTab(c.id)}
          >
            {c.name}
          </button>
        ))}
      </div>

      {error ? <p className="mt-6 text-error">{t('meals.tracker.fetchError')}</p> : null}
      {isLoading ? <Skeleton label={t('meals.loading')} /> : null}
      {!isLoading && !error && meals.length === 0 ? (
        <div className="mt-10 flex flex-col items-center gap-4 text-center">
          <p className="text-lg font-medium">{t('meals.tracker.empty')}</p>
          <button type="button" className="btn btn-primary" onClick={() => setRecording(true)}>
            {t('meals.tracker.recordFirst')}
          </button>
        </div>
      ) : null}

      {groupByDay(shown).map((group) => (
        <section key={group.day} className="mt-6" aria-label={group.day}>
          <h2 className="mb-2 text-lg font-semibold">{group.day}</h2>
          <ul
            className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
            aria-label={t('meals.tracker.dayLabel', { day: group.day })}
          >
            {group.meals.map((meal) => (
              // Cards off the screen are not laid out or painted until scrolled to: fifty
              // cards at once kept a phone busy (Lighthouse's blocking time).
              <li
                key={meal.id}
                className="[contain-intrinsic-size:auto_16rem] [content-visibility:auto]"
              >
                <MealCard
                  meal={meal}
                  childName={names.get(meal.childId)}
                  onEdit={setEditing}
                  onDelete={deletion.ask}
                />
              </li>
            ))}
          </ul>
        </section>
      ))}
      {hasMore ? (
        <div className="mt-6 text-center">
          <button type="button" className="btn btn-outline" onClick={() => void loadMore()}>
            {t('meals.tracker.showOlder')}
          </button>
        </div>
      ) : null}

      <Modal
        open={recording || editing !== null}
        title={editing ? t('meals.tracker.edit') : t('meals.tracker.record')}
        onClose={() => (formCancel.current ? formCancel.current() : closeForm())}
        wide
      >
        {recording || editing ? (
          <MealForm
            key={editing?.id ?? 'new'}
            childList={children}
            childId={tab}
            meal={editing ?? undefined}
            onDone={closeForm}
            onCancel={closeForm}
            cancelRef={formCancel}
          />
        ) : null}
      </Modal>
      <ConfirmDialog
        {...deletion.dialog}
        title={t('meals.tracker.deleteTitle')}
        message={t('meals.tracker.deleteText')}
        confirmLabel={t('common.delete')}
      />
    </section>
  );
}
