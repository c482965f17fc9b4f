import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import type { RecipeContent } from '../../hooks/useRecipes';
import { lines, parseIngredientLine } from '../../lib/recipes';
import { FormActions } from '../ui/FormActions';
import { Input, TextArea } from '../ui/Input';

/** What the form starts from: nothing (a family's own dish), an imported draft, or a saved recipe. */
export interface RecipeStart {
  content?: Partial<RecipeContent>;
  sourceUrl?: string | null;
}

interface RecipeFormProps {
  start?: RecipeStart;
  /** Shown above the fields: what the recipe means for the children. */
  children?: ReactNode;
  submitLabel?: string;
  /** Saves; returns the field the server found wrong, if any. */
  onSave: (content: RecipeContent, sourceUrl: string) => Promise<string | undefined>;
  onCancel: () => void;
}

const minutes = (text: string) => Math.min(1440, Math.max(0, Math.round(Number(text) || 0)));

/**
 * A recipe's title, ingredients (one per line, quantity first), steps (one per line), times,
 * servings and source. Fields the form does not show (tips, nutrition...) are kept as they came.
 */
export function RecipeForm({ start, children, submitLabel, onSave, onCancel }: RecipeFormProps) {
  const { t } = useTranslation();
  const from = start?.content ?? {};
  const [title, setTitle] = useState(from.title ?? '');
  const [description, setDescription] = useState(from.description ?? '');
  const [ingredients, setIngredients] = useState(
    (from.ingredients ?? []).map((i) => `${i.quantity} ${i.name}`.trim()).join('\n'),
  );
  const [steps, setSteps] = useState((from.instructions ?? []).join('\n'));
  const [prep, setPrep] = useState(from.preparationTime ? String(from.preparationTime) : '');
  const [cook, setCook] = useState(from.cookingTime ? String(from.cookingTime) : '');
  const [servings, setServings] = useState(from.servings ? String(from.servings) : '');
  const [source, setSource] = useState(start?.sourceUrl ?? '');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);

  const submit = async () => {
    const found: Record<string, string> = {};
    if (!title.trim()) found.title = t('recipes.form.titleRequired');
    if (lines(ingredients).length === 0) found.ingredients = t('recipes.form.ingredientsRequired');
    if (lines(steps).length === 0) found.instructions = t('recipes.form.stepsRequired');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSaving(true);
    const field = await onSave(
      {
        difficulty: 'easy',
        dietaryRestrictions: [],
        allergies: [],
        estimatedCost: null,
        nutritionalInfo: null,
        tips: [],
        substitutions: [],
        ...from,
        title,
        description,
        ingredients: lines(ingredients).map(parseIngredientLine),
        instructions: lines(steps),
        preparationTime: minutes(prep),
        cookingTime: cook.trim() ? minutes(cook) : null,
        servings: servings.trim() ? Math.min(100, Math.max(1, Math.round(Number(servings)))) : null,
      },
      source.trim(),
    );
    setSaving(false);
    if (field) setErrors({ [field]: t('recipes.form.checkField') });
  };

  return (
    <form
      className="space-y-3"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {children}
      <Input
        label={t('recipes.form.title')}
        value={title}
        maxLength={200}
        error={errors.title}
        onChange={(e) => setTitle(e.target.value)}
      />
      <TextArea
        label={t('recipes.form.description')}
        className="h-20"
        value={description}
        maxLength={1000}
        onChange={(e) => setDescription(e.target.value)}
      />
      <TextArea
        label={t('recipes.form.ingredients')}
        hint={t('recipes.form.ingredientsHint')}
        className="h-32"
        value={ingredients}
        error={errors.ingredients}
        onChange={(e) => setIngredients(e.target.value)}
      />
      <TextArea
        label={t('recipes.form.steps')}
        hint={t('recipes.form.stepsHint')}
        className="h-32"
        value={steps}
        error={errors.instructions}
        onChange={(e) => setSteps(e.target.value)}
      />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <Input
          label={t('recipes.form.prep')}
          type="number"
          min={0}
          max={1440}
          inputMode="numeric"
          value={prep}
          onChange={(e) => setPrep(e.target.value)}
        />
        <Input
          label={t('recipes.form.cook')}
          type="number"
          min={0}
          max={1440}
          inputMode="numeric"
          value={cook}
          onChange={(e) => setCook(e.target.value)}
        />
        <Input
          label={t('recipes.form.servings')}
          type="number"
          min={1}
          max={100}
          inputMode="numeric"
          value={servings}
          error={errors.servings}
          onChange={(e) => setServings(e.target.value)}
        />
      </div>
      <Input
        label={t('recipes.form.source')}
        type="url"
        inputMode="url"
        value={source}
        maxLength={2000}
        error={errors.sourceUrl}
        onChange={(e) => setSource(e.target.value)}
      />
      <FormActions layout="modal" onCancel={onCancel} busy={saving}>
        {submitLabel ?? t('recipes.saveRecipe')}
      </FormActions>
    </form>
  );
}
