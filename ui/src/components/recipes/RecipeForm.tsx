import { useState, type ReactNode } from 'react';

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
export function RecipeForm({
  start,
  children,
  submitLabel = 'Save Recipe',
  onSave,
  onCancel,
}: RecipeFormProps) {
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
    if (!title.trim()) found.title = 'Please enter a title';
    if (lines(ingredients).length === 0) found.ingredients = 'Please add at least one ingredient';
    if (lines(steps).length === 0) found.instructions = 'Please add at least one step';
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
    if (field) setErrors({ [field]: 'Please check this' });
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
        label="Title"
        value={title}
        maxLength={200}
        error={errors.title}
        onChange={(e) => setTitle(e.target.value)}
      />
      <TextArea
        label="Description"
        className="h-20"
        value={description}
        maxLength={1000}
        onChange={(e) => setDescription(e.target.value)}
      />
      <TextArea
        label="Ingredients"
        hint="One per line, e.g. 200 g rice"
        className="h-32"
        value={ingredients}
        error={errors.ingredients}
        onChange={(e) => setIngredients(e.target.value)}
      />
      <TextArea
        label="Steps"
        hint="One step per line"
        className="h-32"
        value={steps}
        error={errors.instructions}
        onChange={(e) => setSteps(e.target.value)}
      />
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        <Input
          label="Preparation time (minutes)"
          type="number"
          min={0}
          max={1440}
          inputMode="numeric"
          value={prep}
          onChange={(e) => setPrep(e.target.value)}
        />
        <Input
          label="Cooking time (minutes)"
          type="number"
          min={0}
          max={1440}
          inputMode="numeric"
          value={cook}
          onChange={(e) => setCook(e.target.value)}
        />
        <Input
          label="Servings"
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
        label="Source (web address)"
        type="url"
        inputMode="url"
        value={source}
        maxLength={2000}
        error={errors.sourceUrl}
        onChange={(e) => setSource(e.target.value)}
      />
      <FormActions layout="modal" onCancel={onCancel} busy={saving}>
        {submitLabel}
      </FormActions>
    </form>
  );
}
