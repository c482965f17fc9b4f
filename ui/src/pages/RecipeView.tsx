import { ArrowLeft, Download, Pencil, Printer, Utensils } from 'lucide-react';
import { useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
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
import { MEAL_TYPES, fromLocalInput, mealTypeLabel, toLocalInput } from '../lib/meals';
import { pathTo, routes } from '../routes';

/** `/recipes/:id`: one saved recipe in full; log it as a child's meal, or delete it. */
export default function RecipeView() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { data: recipe, error, isLoading } = useRecipe(id);
  const { data: site } = useSite();
  const { remove } = useRecipeActions();
  const navigate = useNavigate();
  const deletion = useConfirmDelete({
    remove: (recipeId: string) => remove(recipeId),
    failureTitle: t('recipes.errors.deleting'),
    done: () => ({ title: t('recipes.delete.done') }),
    onDone: () => void navigate(routes.recipes),
  });
  const [logging, setLogging] = useState(false);
  const [editing, setEditing] = useState(false);

  return (
    <section className="mx-auto max-w-3xl px-4 py-10">
      <Link to={routes.recipes} className="btn btn-ghost btn-sm -ml-2">
        <ArrowLeft aria-hidden size={16} /> {t('recipes.view.back')}
      </Link>
      {error ? (
        <div className="mt-6">
          <h1 className="text-2xl font-bold">{t('recipes.errors.fetching')}</h1>
          <p className="mt-2">
            {error instanceof ApiFailure && error.status === 404
              ? t('recipes.view.notHere')
              : t('common.unexpectedError')}
          </p>
        </div>
      ) : isLoading || !recipe ? (
        <Spinner label={t('recipes.view.loading')} />
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
                <Utensils aria-hidden size={18} /> {t('recipes.view.logMeal')}
              </Button>
              <Button variant="outline" onClick={() => setEditing(true)}>
                <Pencil aria-hidden size={18} /> {t('common.edit')}
              </Button>
              <Link to={pathTo(routes.recipePrint, { id })} className="btn btn-outline">
                <Printer aria-hidden size={18} /> {t('recipes.view.print')}
              </Link>
              <a href={`/api/recipes/${id}/export`} download className="btn btn-ghost">
                <Download aria-hidden size={18} /> {t('recipes.view.export')}
              </a>
              <Button variant="outline" onClick={() => deletion.ask(id)}>
                {t('common.delete')}
              </Button>
            </div>
          </div>
        </div>
      )}
      <ConfirmDialog
        {...deletion.dialog}
        title={t('recipes.delete.title')}
        message={
          recipe?.title
            ? t('recipes.delete.message', { title: recipe.title })
            : t('recipes.delete.messageUnnamed')
        }
        confirmLabel={t('common.delete')}
      />
      {recipe ? (
        <Modal open={logging} title={t('recipes.view.logMeal')} onClose={() => setLogging(false)}>
          <LogMealForm recipe={recipe} onDone={() => setLogging(false)} />
        </Modal>
      ) : null}
      {recipe ? (
        <Modal
          open={editing}
          title={t('recipes.view.editTitle')}
          onClose={() => setEditing(false)}
          wide
        >
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
      <Trans
        i18nKey="recipes.view.source"
        components={{
          go: (
            <a
              href={url}
              className="link wrap-anywhere"
              rel="noopener noreferrer nofollow"
              target="_blank"
            >
              {site}
            </a>
          ),
        }}
      />
    </p>
  );
}

/** The saved recipe in the recipe form; its picture can be removed. */
function EditRecipe({ recipe, onDone }: { recipe: Recipe; onDone: () => void }) {
  const { t } = useTranslation();
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
          toast({ variant: 'success', title: t('recipes.view.updated') });
          onDone();
          return undefined;
        } catch (err) {
          return fail(err, t('recipes.errors.saving'));
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
          {t('recipes.view.removePicture')}
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
  const { t } = useTranslation();
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
        <Trans
          i18nKey="recipes.view.noChildren"
          components={{ go: <Link to={routes.children} className="link" /> }}
        />
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
      toast({ variant: 'success', title: t('recipes.view.mealRecorded') });
      onDone();
    } catch (err) {
      fail(err, t('recipes.errors.savingMeal'));
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
        label={t('recipes.view.child')}
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
      <Select
        label={t('recipes.view.mealType')}
        value={mealType}
        onChange={(e) => setMealType(e.target.value)}
      >
        {MEAL_TYPES.map((type) => (
          <option key={type} value={type}>
            {mealTypeLabel(type)}
          </option>
        ))}
      </Select>
      <Input
        label={t('recipes.view.whenEaten')}
        type="datetime-local"
        value={eatenAt}
        onChange={(e) => setEatenAt(e.target.value)}
      />
      <FoodWarnings check={check} />
      {warned ? (
        <p role="alert" className="text-sm font-semibold">
          {t('recipes.view.warnedText')}
        </p>
      ) : null}
      <FormActions layout="modal" onCancel={onDone} busy={saving} submitDisabled={!child}>
        {warned ? t('recipes.view.saveAnyway') : t('recipes.view.logMealSubmit')}
      </FormActions>
    </form>
  );
}
