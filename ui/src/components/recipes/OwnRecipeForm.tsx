import { useState } from 'react';

import type { RecipeContent } from '../../hooks/useRecipes';
import { lines, parseIngredientLine } from '../../lib/recipes';
import { FormActions } from '../ui/FormActions';
import { Input, TextArea } from '../ui/Input';

interface OwnRecipeFormProps {
  /** Saves; returns the field the server found wrong, if any. */
  onSave: (content: RecipeContent) => Promise<string | undefined>;
  onCancel: () => void;
}

/** A family's own dish: title, ingredients (one per line) and steps (one per line). */
export function OwnRecipeForm({ onSave, onCancel }: OwnRecipeFormProps) {
  const [title, setTitle] = useState('');
  const [description, setDescription] = useState('');
  const [ingredients, setIngredients] = useState('');
  const [steps, setSteps] = useState('');
  const [prep, setPrep] = useState('');
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
    const field = await onSave({
      title,
      description,
      ingredients: lines(ingredients).map(parseIngredientLine),
      instructions: lines(steps),
      preparationTime: Math.max(0, Math.round(Number(prep) || 0)),
      cookingTime: null,
      difficulty: 'easy',
      servings: null,
      dietaryRestrictions: [],
      allergies: [],
      estimatedCost: null,
      nutritionalInfo: null,
      tips: [],
      substitutions: [],
    });
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
      <Input
        label="Preparation time (minutes)"
        type="number"
        min={0}
        max={1440}
        inputMode="numeric"
        value={prep}
        onChange={(e) => setPrep(e.target.value)}
      />
      <FormActions layout="modal" onCancel={onCancel} busy={saving}>
        Save Recipe
      </FormActions>
    </form>
  );
}
