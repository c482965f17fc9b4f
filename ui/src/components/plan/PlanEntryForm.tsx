import { TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { Child } from '../../hooks/useChildren';
import { useMealPlanActions, type Concern } from '../../hooks/useMealPlan';
import type { Recipe } from '../../hooks/useRecipes';
import { useSubmit } from '../../hooks/useSubmit';
import type { EntryFields } from '../../lib/mealPlan';
import { MEAL_TYPES, mealTypeLabel } from '../../lib/meals';
import { dayLabel } from '../../lib/week';
import { FormActions } from '../ui/FormActions';
import { Input, Select } from '../ui/Input';
import { PlanWarnings } from './PlanWarnings';

interface FormProps {
  initial: EntryFields;
  days: readonly string[];
  recipes: readonly Recipe[];
  children: readonly Child[];
  /** Saves the fields; rejects with the server's failure. */
  onSave: (fields: EntryFields) => Promise<unknown>;
  onCancel: () => void;
  editing: boolean;
}

const SERVINGS_MAX = 20;

/**
 * A planned meal: a day, a meal, a saved recipe or anything else ('leftovers'), how many it
 * serves (the grocery list is scaled to it) and which children it is for. A meal that meets
 * the allergies of a child it is for is named before it is saved (the server's matcher, for a
 * recipe and free text alike); a second Save plans it anyway.
 */
export function PlanEntryForm({
  initial,
  days,
  recipes,
  children,
  onSave,
  onCancel,
  editing,
}: FormProps) {
  const { t } = useTranslation();
  const [fields, setFields] = useState<EntryFields>(() => ({
    ...initial,
    // A recipe deleted since it was planned can only be kept as text.
    recipeId: recipes.some((r) => r.id === initial.recipeId) ? initial.recipeId : null,
  }));
  const [what, setWhat] = useState<'recipe' | 'text'>(
    fields.recipeId || (!initial.text && recipes.length > 0) ? 'recipe' : 'text',
  );
  const set = (change: Partial<EntryFields>) => setFields((f) => ({ ...f, ...change }));
  const { check } = useMealPlanActions();
  // What the entry means for its children (allergies, choking, age rules), found when Save was
  // pressed for these fields; a second Save of the same meal, day and children goes ahead.
  const [warning, setWarning] = useState<{ key: string; found: Concern[] } | null>(null);
  const outgoing: EntryFields =
    what === 'recipe'
      ? { ...fields, text: '' }
      : { ...fields, recipeId: null, text: fields.text.trim() };
  const key = JSON.stringify([outgoing.recipeId, outgoing.text, outgoing.childIds, outgoing.date]);
  const shown = warning?.key === key ? warning.found : [];
  const allergic = shown.some((c) => c.kind === 'allergen');

  const submit = useSubmit(
    async (signal) => {
      if (warning?.key !== key) {
        const found = await check(outgoing, signal);
        // A food described as prepared the safe way is advice: it does not stop the save.
        if (found.some((c) => c.kind === 'allergen' || !c.prepared)) {
          setWarning({ key, found });
          return null;
        }
      }
      return onSave(outgoing);
    },
    {
      failureTitle: t('plan.error.save'),
      check: () => {
        if (what === 'recipe' && !fields.recipeId) {
          return { fields: { recipeId: t('plan.form.chooseRecipeError') } };
        }
        if (what === 'text' && !fields.text.trim()) {
          return { fields: { text: t('plan.form.textRequired') } };
        }
        if (!Number.isInteger(fields.servings) || fields.servings < 1 || fields.servings > 20) {
          return {
            fields: { servings: t('plan.form.servingsRange', { max: SERVINGS_MAX }) },
          };
        }
        return null;
      },
    },
  );

  return (
    <form className="space-y-4" onSubmit={submit.onSubmit} noValidate>
      <div className="grid gap-3 sm:grid-cols-2">
        <Select
          label={t('plan.form.day')}
          value={fields.date}
          onChange={(e) => set({ date: e.target.value })}
        >
          {days.map((d) => (
            <option key={d} value={d}>
              {dayLabel(d)}
            </option>
          ))}
        </Select>
        <Select
          label={t('plan.form.mealType')}
          value={fields.mealType}
          onChange={(e) => set({ mealType: e.target.value })}
        >
          {MEAL_TYPES.map((type) => (
            <option key={type} value={type}>
              {mealTypeLabel(type)}
            </option>
          ))}
        </Select>
      </div>
      <fieldset>
        <legend className="mb-2 text-sm font-medium">{t('plan.form.what')}</legend>
        <div className="flex flex-wrap gap-4">
          <label className="flex min-h-11 cursor-pointer items-center gap-2">
            <input
              type="radio"
              className="radio"
              name="what"
              checked={what === 'recipe'}
              disabled={recipes.length === 0}
              onChange={() => setWhat('recipe')}
            />
            {t('plan.form.savedRecipe')}
          </label>
          <label className="flex min-h-11 cursor-pointer items-center gap-2">
            <input
              type="radio"
              className="radio"
              name="what"
              checked={what === 'text'}
              onChange={() => setWhat('text')}
            />
            {t('plan.form.somethingElse')}
          </label>
        </div>
      </fieldset>
      {what === 'recipe' ? (
        <Select
          label={t('plan.form.recipe')}
          value={fields.recipeId ?? ''}
          error={submit.fieldErrors.recipeId}
          onChange={(e) => {
            const recipe = recipes.find((r) => r.id === e.target.value);
            set({
              recipeId: e.target.value || null,
              servings: recipe?.servings ?? fields.servings,
            });
            submit.clearFieldError('recipeId');
          }}
        >
          <option value="">{t('plan.form.chooseRecipe')}</option>
          {recipes.map((r) => (
            <option key={r.id} value={r.id}>
              {r.title}
            </option>
          ))}
        </Select>
      ) : (
        <Input
          label={t('plan.form.text')}
          placeholder={t('plan.form.textPlaceholder')}
          maxLength={100}
          value={fields.text}
          error={submit.fieldErrors.text}
          onChange={(e) => {
            set({ text: e.target.value });
            submit.clearFieldError('text');
          }}
        />
      )}
      <Input
        label={t('plan.form.servings')}
        type="number"
        inputMode="numeric"
        min={1}
        max={SERVINGS_MAX}
        value={Number.isNaN(fields.servings) ? '' : fields.servings}
        error={submit.fieldErrors.servings}
        onChange={(e) => set({ servings: e.target.valueAsNumber })}
      />
      {children.length > 0 ? (
        <fieldset>
          <legend className="mb-1 text-sm font-medium">{t('plan.form.forWhom')}</legend>
          <div className="flex flex-wrap gap-x-4">
            {children.map((c) => (
              <label key={c.id} className="flex min-h-11 cursor-pointer items-center gap-2">
                <input
                  type="checkbox"
                  className="checkbox"
                  checked={fields.childIds.includes(c.id)}
                  onChange={(e) =>
                    set({
                      childIds: e.target.checked
                        ? [...fields.childIds, c.id]
                        : fields.childIds.filter((id) => id !== c.id),
                    })
                  }
                />
                {c.name}
              </label>
            ))}
          </div>
        </fieldset>
      ) : null}
      {shown.length > 0 ? (
        <div role="alert" className="alert alert-warning items-start">
          <TriangleAlert aria-hidden size={20} />
          <div className="min-w-0">
            <p className="font-semibold">
              {allergic ? t('plan.form.allergyWarning') : t('plan.form.safetyWarning')}
            </p>
            <PlanWarnings warnings={shown} className="text-sm" detailed />
            <p className="text-sm">
              {allergic ? t('plan.form.allergyAdvice') : t('plan.form.safetyAdvice')}
            </p>
          </div>
        </div>
      ) : null}
      <FormActions
        onCancel={() => {
          submit.cancel();
          onCancel();
        }}
        busy={submit.busy}
      >
        {shown.length > 0
          ? t('plan.form.planAnyway')
          : editing
            ? t('plan.form.saveChanges')
            : t('plan.form.addToPlan')}
      </FormActions>
    </form>
  );
}
