import { ChevronLeft, ChevronRight, ListPlus, Pencil, Plus, Trash2 } from 'lucide-react';
import { useDeferredValue, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';

import { GroceryListForm } from '../components/grocery/GroceryListForm';
import { PlanEntryForm } from '../components/plan/PlanEntryForm';
import { PlanWarnings } from '../components/plan/PlanWarnings';
import { Button } from '../components/ui/Button';
import { Modal } from '../components/ui/Modal';
import { Spinner } from '../components/ui/Spinner';
import { useToast } from '../components/ui/toast-context';
import { useChildNames, useChildren } from '../hooks/useChildren';
import { useFailure } from '../hooks/useFailure';
import type { ListDraft } from '../hooks/useGroceryLists';
import { useMealPlan, useMealPlanActions, type MealPlan as Plan } from '../hooks/useMealPlan';
import { useRecipes } from '../hooks/useRecipes';
import { useSite } from '../hooks/useSite';
import {
  blankEntry,
  byDay,
  entryFields,
  forWhom,
  type EntryFields,
  type PlanChange,
  type PlanEntry,
} from '../lib/mealPlan';
import { mealTypeLabel } from '../lib/meals';
import { addWeeks, dayLabel, mondayOf, weekLabel, weekOf } from '../lib/week';
import { pathTo, routes } from '../routes';

type Editing = { fields: EntryFields; id?: string } | null;

/**
 * `/meal-plan`: a week at a time, one day per row on a phone and a grid on a desktop. Parents
 * place saved recipes or anything else on days and meals, for the whole family or some
 * children; a planned recipe that meets a child's allergy says so. The week's recipes make a
 * grocery list, scaled to the planned servings.
 */
export default function MealPlan() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const asked = params.get('week') ?? '';
  const week = mondayOf(asked) ? asked : weekOf(new Date());
  const { data: plan, error, isLoading } = useMealPlan(week);
  const { data: recipes, error: recipesError } = useRecipes(true);
  const { data: children, error: childrenError } = useChildren();
  // The week shows once the recipes and children it names are there too: one render of the
  // week instead of three, and no links or names popping in after it.
  const named =
    (recipes !== undefined || recipesError !== undefined) &&
    (children !== undefined || childrenError !== undefined);
  // The week first appears in a background render React does in small steps (rendered at once,
  // it kept a phone from answering a tap for a moment: Lighthouse's blocking time).
  const ready = useDeferredValue(plan !== undefined && named);
  const { data: site } = useSite();
  const names = useChildNames(children);
  const { save, groceryDraft } = useMealPlanActions();
  const { toast } = useToast();
  const fail = useFailure();
  const navigate = useNavigate();
  const [editing, setEditing] = useState<Editing>(null);
  const [draft, setDraft] = useState<ListDraft | null>(null);
  const [drafting, setDrafting] = useState(false);
  const thisWeek = weekOf(new Date());
  const goTo = (next: string) => setParams(next === thisWeek ? {} : { week: next });

  const change = async (current: Plan, what: PlanChange, done: string) => {
    await save(current, what);
    toast({ variant: 'success', title: done });
  };

  return (
    // The header's width and padding, so the week lines up with the header on a desktop.
    <section className="mx-auto max-w-6xl px-4 py-8">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h1 className="text-3xl font-bold">{t('plan.title')}</h1>
        <Button
          variant="secondary"
          busy={drafting}
          disabled={!plan || !plan.entries.some((e) => e.recipeId)}
          onClick={() => {
            setDrafting(true);
            groceryDraft(week)
              .then(setDraft)
              .catch((err: unknown) => fail(err, t('grocery.error.save')))
              .finally(() => setDrafting(false));
          }}
        >
          <ListPlus aria-hidden size={18} /> {t('plan.groceryFromWeek')}
        </Button>
      </div>
      <nav aria-label={t('plan.week')} className="mt-4 flex flex-wrap items-center gap-2">
        <button
          type="button"
          className="btn btn-outline btn-square"
          aria-label={t('plan.previousWeek')}
          onClick={() => goTo(addWeeks(week, -1))}
        >
          <ChevronLeft aria-hidden />
        </button>
        <p className="min-w-44 text-center font-medium" aria-live="polite">
          {weekLabel(week)}
        </p>
        <button
          type="button"
          className="btn btn-outline btn-square"
          aria-label={t('plan.nextWeek')}
          onClick={() => goTo(addWeeks(week, 1))}
        >
          <ChevronRight aria-hidden />
        </button>
        {week !== thisWeek ? (
          <button type="button" className="btn btn-ghost" onClick={() => goTo(thisWeek)}>
            {t('plan.thisWeek')}
          </button>
        ) : null}
      </nav>
      <div className="mt-6">
        {error && !plan ? (
          <div role="alert" className="alert alert-error">
            <div>
              <p className="font-semibold">{t('plan.error.load')}</p>
              <p>{error instanceof Error ? error.message : t('common.unexpectedError')}</p>
            </div>
          </div>
        ) : isLoading || !plan || !ready ? (
          <Spinner label={t('plan.loading')} fill />
        ) : (
          <div className="grid grid-cols-1 gap-3 lg:grid-cols-7">
            {byDay(plan.days, plan.entries).map(({ day, entries }) => (
              // Not content-visibility:auto: seven days are cheap to lay out, and skipping the
              // ones off the screen cost more layout than it saved (Lighthouse's blocking time
              // on the simulated phone: 300 ms with it, 100 ms without).
              <section
                key={day}
                aria-label={dayLabel(day)}
                className="card border border-base-300 bg-base-100"
              >
                <div className="card-body gap-2 p-3">
                  <h2 className="font-semibold">{dayLabel(day)}</h2>
                  {entries.length > 0 ? (
                    <ul className="space-y-2">
                      {entries.map((entry) => (
                        <Entry
                          key={entry.id}
                          entry={entry}
                          plan={plan}
                          names={names}
                          known={recipes?.some((r) => r.id === entry.recipeId) ?? false}
                          onEdit={() => setEditing({ fields: entryFields(entry), id: entry.id })}
                          onRemove={() =>
                            change(plan, { kind: 'remove', id: entry.id }, t('plan.removed')).catch(
                              (err: unknown) => fail(err, t('plan.error.save')),
                            )
                          }
                        />
                      ))}
                    </ul>
                  ) : (
                    <p className="text-sm text-base-content/70">{t('plan.nothingPlanned')}</p>
                  )}
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm mt-auto justify-start"
                    aria-label={t('plan.addMealOn', { day: dayLabel(day) })}
                    onClick={() => setEditing({ fields: blankEntry(day) })}
                  >
                    <Plus aria-hidden size={16} /> {t('common.add')}
                  </button>
                </div>
              </section>
            ))}
          </div>
        )}
      </div>
      <Modal
        open={editing !== null && plan !== undefined}
        title={editing?.id ? t('plan.editMeal') : t('plan.planMeal')}
        onClose={() => setEditing(null)}
      >
        {editing && plan ? (
          <PlanEntryForm
            initial={editing.fields}
            days={plan.days}
            recipes={recipes ?? []}
            children={children ?? []}
            editing={Boolean(editing.id)}
            onCancel={() => setEditing(null)}
            onSave={async (fields) => {
              await change(
                plan,
                editing.id ? { kind: 'edit', id: editing.id, fields } : { kind: 'add', fields },
                editing.id ? t('plan.updated') : t('plan.planned'),
              );
              setEditing(null);
            }}
          />
        ) : null}
      </Modal>
      <Modal
        open={draft !== null}
        title={t('grocery.createTitle')}
        onClose={() => setDraft(null)}
        wide
      >
        {draft ? (
          <GroceryListForm
            draft={draft}
            currency={site?.currency ?? 'GBP'}
            perItem={site?.groceryItemEstimate ?? 2.5}
            onCancel={() => setDraft(null)}
            onSaved={() => {
              setDraft(null);
              navigate(routes.groceryList);
            }}
          />
        ) : null}
      </Modal>
    </section>
  );
}

function Entry({
  entry,
  plan,
  names,
  known,
  onEdit,
  onRemove,
}: {
  entry: PlanEntry;
  plan: Plan;
  names: ReadonlyMap<string, string>;
  /** Whether the recipe is still saved (it may have been deleted since). */
  known: boolean;
  onEdit: () => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation();
  return (
    <li
      className="rounded-box bg-base-200 p-2 text-sm"
      aria-label={t('plan.entryLabel', {
        mealType: mealTypeLabel(entry.mealType),
        title: entry.title,
      })}
    >
      <p className="text-xs font-medium text-base-content/70">{mealTypeLabel(entry.mealType)}</p>
      <p className="font-medium wrap-anywhere">
        {entry.recipeId && known ? (
          <Link className="link" to={pathTo(routes.recipe, { id: entry.recipeId })}>
            {entry.title}
          </Link>
        ) : (
          entry.title
        )}
      </p>
      <p className="text-xs text-base-content/70">
        {t('plan.serves', { count: entry.servings, who: forWhom(entry.childIds, names) })}
      </p>
      <PlanWarnings warnings={plan.warnings.filter((w) => w.entryId === entry.id)} />
      <div className="mt-1 flex justify-end gap-1">
        <button
          type="button"
          className="btn btn-ghost btn-square btn-sm"
          aria-label={t('plan.editEntry', { title: entry.title, day: dayLabel(entry.date) })}
          onClick={onEdit}
        >
          <Pencil aria-hidden size={16} />
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-square btn-sm"
          aria-label={t('plan.removeEntry', { title: entry.title, day: dayLabel(entry.date) })}
          onClick={onRemove}
        >
          <Trash2 aria-hidden size={16} />
        </button>
      </div>
    </li>
  );
}
