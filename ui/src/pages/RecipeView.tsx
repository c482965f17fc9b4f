import { ArrowLeft, Download, Pencil, Printer, Utensils } from 'lucide-react';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';

import { ApiFailure } from '../api/client';
import { AllergyWarnings } from '../components/food-safety/AllergyWarnings';
import { FoodWarnings } from '../components/food-safety/FoodWarnings';
import { SafetyNotes } from '../components/food-safety/SafetyNotes';
import { RecipeDetails } from '../components/recipes/RecipeDetails';
import { RecipeForm } from '../components/recipes/RecipeForm';
import { Button } from '../components/ui/Button';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';
import { FormActions } from '../components/ui/FormActions';
import { Input, Select } from '../components/ui/Input';
import { Modal } from '../components/ui/Modal';
import { Spinner } from '../components/ui/Spinner';
import { useToast } from '../components/ui/toast-context';
import { useConfirmDelete } from '../components/ui/useConfirmDelete';
import { useChildren } from '../hooks/useChildren';
import { useFailure } from '../hooks/useFailure';
import { checkFoods, isAlarm, useFoodCheck } from '../hooks/useFoodCheck';
import { useRecipe, useRecipeActions, type Recipe } from '../hooks/useRecipes';
import { useSite } from '../hooks/useSite';
import { MEAL_TYPES, fromLocalInput, toLocalInput } from '../lib/meals';
import { pathTo, routes } from '../routes';

/** `/recipes/:id`: one saved recipe in full; log it as a child's meal, or delete it. */
export default function RecipeView() {
  const { id = '' } = useParams();
  const { data: recipe, error, isLoading } = useRecipe(id);
  const { data: site } = useSite();
  const { remove } = useRecipeActions();
  const navigate = useNavigate();
  const deletion = useConfirmDelete({
    remove: (recipeId: string) => remove(recipeId),
    failureTitle: 'Error deleting recipe',
    done: () => ({ title: 'Recipe deleted' }),
    onDone: () => void navigate(routes.recipes),
  });
  const [logging, setLogging] = useState(false);
  const [editing, setEditing] = useState(false);

  return (
    <section className="mx-auto max-w-3xl px-4 py-10">
      <Link to={routes.recipes} className="btn btn-ghost btn-sm -ml-2">
        <ArrowLeft aria-hidden size={16} /> Recipes
      </Link>
      {error ? (
        <div className="mt-6">
          <h1 className="text-2xl font-bold">Error fetching recipes</h1>
          <p className="mt-2">
            {error instanceof ApiFailure && error.status === 404
              ? 'This recipe is not here: it may have been deleted by someone else in your family.'
              : 'An unexpected error occurred'}
          </p>
        </div>
      ) : isLoading || !recipe ? (
        <Spinner label="Loading the recipe" />
      ) : (
        <div className="card mt-2 border border-base-300 bg-base-100">
          <div className="card-body">
            <AllergyWarnings warnings={recipe.allergyWarnings} />
            <SafetyNotes notes={recipe.safetyNotes} />
            {recipe.photoId ? (
              <img
                src={`/api/media/${recipe.photoId}?size=medium`}
                alt={recipe.title}
                className="max-h-80 w-full rounded-box object-cover"
              />
            ) : null}
            <RecipeDetails recipe={recipe} currency={site?.currency ?? 'GBP'} as="h1" />
            <RecipeSource url={recipe.sourceUrl} />
            <div className="card-actions mt-4">
              <Button onClick={() => setLogging(true)}>
                <Utensils aria-hidden size={18} /> Log as a meal
              </Button>
              <Button variant="outline" onClick={() => setEditing(true)}>
                <Pencil aria-hidden size={18} /> Edit
              </Button>
              <Link to={pathTo(routes.recipePrint, { id })} className="btn btn-outline">
                <Printer aria-hidden size={18} /> Print
              </Link>
              <a href={`/api/recipes/${id}/export`} download className="btn btn-ghost">
                <Download aria-hidden size={18} /> Export
              </a>
              <Button variant="outline" onClick={() => deletion.ask(id)}>
                Delete
              </Button>
            </div>
          </div>
        </div>
      )}
      <ConfirmDialog
        {...deletion.dialog}
        title="Delete recipe?"
        message={`Are you sure you want to delete ${recipe?.title ?? 'this recipe'}? This action cannot be undone.`}
        confirmLabel="Delete"
      />
      {recipe ? (
        <Modal open={logging} title="Log as a meal" onClose={() => setLogging(false)}>
          <LogMealForm recipe={recipe} onDone={() => setLogging(false)} />
        </Modal>
      ) : null}
      {recipe ? (
        <Modal open={editing} title="Edit Recipe" onClose={() => setEditing(false)} wide>
          {editing ? <EditRecipe recipe={recipe} onDone={() => setEditing(false)} /> : null}
        </Modal>
      ) : null}
    </section>
  );
}

/** Where an imported recipe came from: a link to the page, named by its site. */
export function RecipeSource({ url }: { url?: string | null }) {
  if (!url) return null;
  let site = url;
  try {
    site = new URL(url).hostname;
  } catch {
    // Shown as it is.
  }
  return (
    <p className="text-sm text-base-content/80">
      Source:{' '}
      <a
        href={url}
        className="link wrap-anywhere"
        rel="noopener noreferrer nofollow"
        target="_blank"
      >
        {site}
      </a>
    </p>
  );
}

/** The saved recipe in the recipe form; its picture can be removed. */
function EditRecipe({ recipe, onDone }: { recipe: Recipe; onDone: () => void }) {
  const { update } = useRecipeActions();
  const { toast } = useToast();
  const fail = useFailure();
  const [removePhoto, setRemovePhoto] = useState(false);
  // The recipe as the form opened on it: a change the other parent saves meanwhile makes this
  // save stale (409), instead of being overwritten.
  const [base] = useState(recipe);
  return (
    <RecipeForm
      start={{ content: base, sourceUrl: base.sourceUrl }}
      onCancel={onDone}
      onSave={async (content, sourceUrl) => {
        try {
          await update(base, content, sourceUrl, removePhoto);
          toast({ variant: 'success', title: 'Recipe updated' });
          onDone();
          return undefined;
        } catch (err) {
          return fail(err, 'Error saving recipe');
        }
      }}
    >
      {base.photoId ? (
        <label className="flex items-center gap-2">
          <input
            type="checkbox"
            className="checkbox"
            checked={removePhoto}
            onChange={(e) => setRemovePhoto(e.target.checked)}
          />
          Remove the picture
        </label>
      ) : null}
    </RecipeForm>
  );
}

/**
 * Child, meal type and time; shows what the recipe's foods mean for the chosen child
 * (allergies, choking, age rules) and asks again before logging one with a warning.
 */
function LogMealForm({ recipe, onDone }: { recipe: Recipe; onDone: () => void }) {
  const { data: children } = useChildren();
  const { logMeal } = useRecipeActions();
  const { toast } = useToast();
  const fail = useFailure();
  const [childId, setChildId] = useState('');
  const [mealType, setMealType] = useState<string>('Dinner');
  const [eatenAt, setEatenAt] = useState(toLocalInput(new Date()));
  // The child the parent was warned about and chose to log for anyway.
  const [asked, setAsked] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const child = childId || children?.[0]?.id || '';
  const foods = recipe.ingredients.map((i) => i.name);
  const check = useFoodCheck(child, foods).current;
  const warned = asked === child;

  if (children && children.length === 0) {
    return (
      <p>
        No children added yet.{' '}
        <Link to={routes.children} className="link">
          Add Your First Child
        </Link>
      </p>
    );
  }

  const save = async (confirmed: boolean) => {
    setSaving(true);
    try {
      if (!confirmed) {
        const found = await checkFoods(child, foods);
        if (found.warnings.some(isAlarm)) {
          setAsked(child);
          return;
        }
      }
      await logMeal(recipe.id, { childId: child, mealType, eatenAt: fromLocalInput(eatenAt) });
      toast({ variant: 'success', title: 'Meal recorded! 🍽️' });
      onDone();
    } catch (err) {
      fail(err, 'Error saving meal');
    } finally {
      setSaving(false);
    }
  };

  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        void save(warned);
      }}
    >
      <Select
        label="Child"
        value={child}
        onChange={(e) => {
          setChildId(e.target.value);
        }}
      >
        {(children ?? []).map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
      </Select>
      <Select label="Meal type" value={mealType} onChange={(e) => setMealType(e.target.value)}>
        {MEAL_TYPES.map((t) => (
          <option key={t} value={t}>
            {t}
          </option>
        ))}
      </Select>
      <Input
        label="When eaten"
        type="datetime-local"
        value={eatenAt}
        onChange={(e) => setEatenAt(e.target.value)}
      />
      <FoodWarnings check={check} />
      {warned ? (
        <p role="alert" className="text-sm font-semibold">
          Log it anyway only if you are preparing it the safe way, or introducing an allergen on
          purpose (the meal is marked as an exposure).
        </p>
      ) : null}
      <FormActions layout="modal" onCancel={onDone} busy={saving} submitDisabled={!child}>
        {warned ? 'Save Anyway' : 'Log Meal'}
      </FormActions>
    </form>
  );
}
