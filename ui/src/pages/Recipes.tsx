import {
  ChefHat,
  ChevronLeft,
  ChevronRight,
  Download,
  Import,
  Plus,
  ShieldAlert,
  Trash2,
} from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { useAuth } from '../auth/auth-context';
import { SafetyNotes } from '../components/food-safety/SafetyNotes';
import { IngredientPicker } from '../components/recipes/IngredientPicker';
import { ImportRecipe } from '../components/recipes/ImportRecipe';
import { RecipeForm } from '../components/recipes/RecipeForm';
import { RecipeDetails } from '../components/recipes/RecipeDetails';
import { Button } from '../components/ui/Button';
import { ConfirmDialog } from '../components/ui/ConfirmDialog';
import { Input, Select } from '../components/ui/Input';
import { Modal } from '../components/ui/Modal';
import { Spinner } from '../components/ui/Spinner';
import { useToast } from '../components/ui/toast-context';
import { useConfirmDelete } from '../components/ui/useConfirmDelete';
import { useChildren } from '../hooks/useChildren';
import { useFailure } from '../hooks/useFailure';
import {
  useGeneration,
  useIngredients,
  useLeftOut,
  useRecipeActions,
  useRecipes,
  type Job,
  type Recipe,
  type RecipeContent,
} from '../hooks/useRecipes';
import { useSite } from '../hooks/useSite';
import { dateLocale } from '../lib/dates';
import {
  COUNTS,
  DIFFICULTIES,
  SERVINGS,
  difficultyLabel,
  splitList,
  type Difficulty,
} from '../lib/recipes';
import { pathTo, routes } from '../routes';

/** `/recipes`: Chef-Quality Recipes, with tabs Create Recipe and My Recipes (spec section 2). */
export default function Recipes() {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'create' | 'mine'>('create');
  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold">{t('recipes.page.title')}</h1>
      <div role="tablist" aria-label={t('recipes.page.tabs')} className="tabs tabs-box mt-6 w-fit">
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'create'}
          className={`tab ${tab === 'create' ? 'tab-active' : 'text-base-content/80'}`}
          onClick={() => setTab('create')}
        >
          {t('recipes.page.create')}
        </button>
        <button
          type="button"
          role="tab"
          aria-selected={tab === 'mine'}
          className={`tab ${tab === 'mine' ? 'tab-active' : 'text-base-content/80'}`}
          onClick={() => setTab('mine')}
        >
          {t('recipes.page.mine')}
        </button>
      </div>
      {/* Both stay mounted: results and a running job survive a look at My Recipes. */}
      <div className="mt-6" hidden={tab !== 'create'}>
        <CreateRecipe />
      </div>
      <div className="mt-6" hidden={tab !== 'mine'}>
        <MyRecipes />
      </div>
    </section>
  );
}

function CreateRecipe() {
  const { t } = useTranslation();
  const { state } = useAuth();
  const signedIn = state.status === 'signedIn';
  const { toast } = useToast();
  const fail = useFailure();
  const { data: catalogue } = useIngredients();
  const { data: site } = useSite();
  const { data: children } = useChildren(signedIn);
  const currency = site?.currency ?? 'GBP';
  const [ingredients, setIngredients] = useState<string[]>([]);
  const [servings, setServings] = useState(2);
  const [count, setCount] = useState(3);
  const [difficulty, setDifficulty] = useState<Difficulty>('easy');
  const [restrictions, setRestrictions] = useState('');
  const [allergies, setAllergies] = useState<string | null>(null);

  // Signed in: the children's allergies fill the field until the parent types in it.
  const childAllergies = signedIn
    ? splitList((children ?? []).flatMap((c) => c.allergies).join(','))
    : [];
  const allergyText = allergies ?? childAllergies.join(', ');
  const leftOut = useLeftOut(signedIn, splitList(allergyText), splitList(restrictions));
  // The job whose results arrived while the parent waited here (not ones shown again later).
  const [arrived, setArrived] = useState<string | null>(null);

  const { job, busy, start } = useGeneration(
    (finished: Job) => {
      if (finished.state === 'done') {
        setArrived(finished.id);
        const n = finished.recipes.length;
        toast({
          variant: 'success',
          title: t('recipes.create.ready', { count: n }),
          description: t('recipes.create.readyCount', { count: n }),
        });
      } else if (finished.error) {
        toast({ title: finished.error.title, description: finished.error.message });
      }
    },
    () =>
      toast({
        title: t('recipes.errors.generating'),
        description: t('recipes.create.gone'),
      }),
  );

  const generate = async () => {
    if (ingredients.length === 0) {
      toast({
        title: t('recipes.create.noIngredients'),
        description: t('recipes.create.noIngredientsText'),
      });
      return;
    }
    try {
      await start({
        ingredients,
        servings,
        quantity: count,
        difficulty,
        dietaryRestrictions: splitList(restrictions),
        allergies: splitList(allergyText),
      });
    } catch (err) {
      fail(err, t('recipes.errors.generating'));
    }
  };

  return (
    <div className="grid gap-8 lg:grid-cols-[minmax(0,5fr)_minmax(0,7fr)]">
      <form
        className="card border border-base-300 bg-base-100"
        onSubmit={(e) => {
          e.preventDefault();
          void generate();
        }}
      >
        <fieldset disabled={busy} className="card-body gap-4">
          <IngredientPicker
            catalogue={catalogue}
            selected={ingredients}
            onChange={setIngredients}
            disabled={busy}
            leftOut={leftOut}
          />
          <div className="grid grid-cols-2 gap-3">
            <Select
              label={t('recipes.create.servings')}
              value={servings}
              onChange={(e) => setServings(Number(e.target.value))}
            >
              {SERVINGS.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </Select>
            <Select
              label={t('recipes.create.count')}
              value={count}
              onChange={(e) => setCount(Number(e.target.value))}
            >
              {COUNTS.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </Select>
          </div>
          <Select
            label={t('recipes.create.difficulty')}
            value={difficulty}
            onChange={(e) => setDifficulty(e.target.value as Difficulty)}
          >
            {DIFFICULTIES.map((d) => (
              <option key={d.value} value={d.value}>
                {difficultyLabel(d.value)}
              </option>
            ))}
          </Select>
          <Input
            label={t('recipes.create.restrictions')}
            hint={t('recipes.create.restrictionsHint')}
            value={restrictions}
            onChange={(e) => setRestrictions(e.target.value)}
          />
          <Input
            label={t('recipes.create.allergies')}
            hint={
              childAllergies.length > 0
                ? t('recipes.create.allergiesFromChildren')
                : t('recipes.create.allergiesHint')
            }
            value={allergyText}
            onChange={(e) => setAllergies(e.target.value)}
          />
          <Button type="submit" disabled={ingredients.length === 0 || busy} busy={busy}>
            <ChefHat aria-hidden size={18} /> {t('recipes.create.generate')}
          </Button>
        </fieldset>
      </form>
      <Results
        job={job}
        busy={busy}
        currency={currency}
        signedIn={signedIn}
        reveal={job !== null && job.id === arrived}
      />
    </div>
  );
}

/** A job's progress (0-100) as the language writes a percentage ("40%", "40 %"). */
function percent(progress: number): string {
  return new Intl.NumberFormat(dateLocale(), { style: 'percent' }).format(progress / 100);
}

function Results({
  job,
  busy,
  currency,
  signedIn,
  reveal,
}: {
  job: Job | null;
  busy: boolean;
  currency: string;
  signedIn: boolean;
  /** Brings the results into view as they appear. */
  reveal: boolean;
}) {
  const { t } = useTranslation();
  const recipes = job?.state === 'done' ? job.recipes : [];
  if (busy) {
    const queued = job?.state === 'queued' && (job.position ?? 0) > 0;
    return (
      <div className="card border border-base-300 bg-base-100">
        <div className="card-body items-center text-center">
          <span className="loading loading-spinner loading-lg" aria-hidden />
          <p className="text-lg font-medium" role="status">
            {t('recipes.results.creating')}
          </p>
          {queued ? (
            <p aria-live="polite">{t('recipes.results.waiting', { count: job?.position ?? 0 })}</p>
          ) : (
            <>
              <progress
                className="progress progress-primary w-full max-w-sm"
                value={job?.progress ?? 0}
                max={100}
                aria-label={t('recipes.results.progress')}
              />
              <p className="text-sm text-base-content/70">{percent(job?.progress ?? 0)}</p>
            </>
          )}
        </div>
      </div>
    );
  }
  if (recipes.length === 0) {
    return (
      <div className="card border border-dashed border-base-300">
        <div className="card-body items-center text-center text-base-content/70">
          <ChefHat aria-hidden size={40} />
          <p>{t('recipes.results.empty')}</p>
          {job?.state === 'failed' && job.withheld.length > 0 ? <Withheld job={job} /> : null}
        </div>
      </div>
    );
  }
  // Keyed by the job: a new set of results starts at the first option.
  return job ? (
    <Carousel key={job.id} job={job} currency={currency} signedIn={signedIn} reveal={reveal} />
  ) : null;
}

/** The results, one option at a time; the arrows wrap around. */
function Carousel({
  job,
  currency,
  signedIn,
  reveal,
}: {
  job: Job;
  currency: string;
  signedIn: boolean;
  reveal: boolean;
}) {
  const { t } = useTranslation();
  const [index, setIndex] = useState(0);
  const top = useRef<HTMLDivElement>(null);
  // Once, as new results arrive (the carousel is keyed by the job): Generate sits at the foot of
  // a long form, and the results appeared above the screen (beside the form) or below it.
  useEffect(() => {
    const box = top.current?.getBoundingClientRect();
    if (reveal && box && (box.top < 0 || box.top > window.innerHeight)) {
      top.current?.scrollIntoView({ block: 'start' });
    }
  }, [reveal]);
  const recipes = job.recipes;
  const current = recipes[index];
  if (!current) return null;
  const step = (d: number) => setIndex((i) => (i + d + recipes.length) % recipes.length);
  return (
    // Clear of the sticky header when scrolled into view.
    <div ref={top} className="scroll-mt-20 space-y-4">
      {job.withheld.length > 0 || job.notes.length > 0 ? <Withheld job={job} /> : null}
      <div className="flex items-center justify-between gap-2">
        <button
          type="button"
          className="btn btn-circle btn-outline"
          aria-label={t('recipes.results.previous')}
          onClick={() => step(-1)}
        >
          <ChevronLeft aria-hidden />
        </button>
        <p className="font-medium" aria-live="polite">
          {t('recipes.results.option', { index: index + 1, total: recipes.length })}
        </p>
        <button
          type="button"
          className="btn btn-circle btn-outline"
          aria-label={t('recipes.results.next')}
          onClick={() => step(1)}
        >
          <ChevronRight aria-hidden />
        </button>
      </div>
      <div className="card border border-base-300 bg-base-100">
        <div className="card-body">
          <SafetyNotes notes={job.safetyNotes?.[index] ?? []} />
          <RecipeDetails key={index} recipe={current} currency={currency} />
          <div className="card-actions mt-4">
            {signedIn ? (
              <SaveButton key={index} recipe={current} />
            ) : (
              <Link to={routes.login} className="btn btn-primary">
                {t('recipes.results.logInToSave')}
              </Link>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}

/** Recipes not shown because of an allergen or restriction, and other notes. */
function Withheld({ job }: { job: Job }) {
  const { t } = useTranslation();
  const n = job.withheld.length;
  return (
    <div role="status" className="alert alert-warning items-start text-left">
      <ShieldAlert aria-hidden className="shrink-0" />
      <div>
        {n > 0 ? (
          <>
            <p className="font-semibold">{t('recipes.results.withheld', { count: n })}</p>
            <ul className="list-disc pl-5 text-sm">
              {job.withheld.map((w, k) => (
                <li key={k}>
                  {t('recipes.results.withheldReasons', {
                    title: w.title,
                    reasons: w.reasons.join('; '),
                  })}
                </li>
              ))}
            </ul>
          </>
        ) : null}
        {job.notes.length > 0 ? (
          <ul className="list-disc pl-5 text-sm">
            {job.notes.map((note, k) => (
              <li key={k}>{note}</li>
            ))}
          </ul>
        ) : null}
      </div>
    </div>
  );
}

function SaveButton({ recipe }: { recipe: RecipeContent }) {
  const { t } = useTranslation();
  const { save } = useRecipeActions();
  const { toast } = useToast();
  const fail = useFailure();
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  return (
    <Button
      busy={saving}
      busyLabel={t('recipes.saveButton.saving')}
      disabled={saved}
      onClick={() => {
        setSaving(true);
        save(recipe, 'generated')
          .then(() => {
            setSaved(true);
            toast({ variant: 'success', title: t('recipes.saveButton.savedToast') });
          })
          .catch((err: unknown) => fail(err, t('recipes.errors.saving')))
          .finally(() => setSaving(false));
      }}
    >
      {saved ? t('recipes.saveButton.saved') : t('recipes.saveRecipe')}
    </Button>
  );
}

function MyRecipes() {
  const { t } = useTranslation();
  const { state } = useAuth();
  const signedIn = state.status === 'signedIn';
  const { data, error, isLoading } = useRecipes(signedIn);
  const { remove, save } = useRecipeActions();
  const { toast } = useToast();
  const fail = useFailure();
  const deletion = useConfirmDelete({
    remove: (recipe: Recipe) => remove(recipe.id),
    failureTitle: t('recipes.errors.deleting'),
    done: () => ({ title: t('recipes.delete.done') }),
  });
  const [adding, setAdding] = useState(false);
  const [importing, setImporting] = useState(false);

  if (state.status === 'loading') return <Spinner label={t('recipes.mine.checkingSession')} />;
  if (!signedIn) {
    return (
      <div className="card border border-base-300 bg-base-100">
        <div className="card-body items-center text-center">
          <p className="text-lg">{t('recipes.mine.signInPrompt')}</p>
          <div className="card-actions">
            <Link to={routes.login} className="btn btn-outline">
              {t('recipes.mine.logIn')}
            </Link>
            <Link to={routes.signup} className="btn btn-primary">
              {t('recipes.mine.signUp')}
            </Link>
          </div>
        </div>
      </div>
    );
  }
  return (
    <div>
      <div className="mb-4 flex flex-wrap justify-end gap-2">
        {data && data.length > 0 ? (
          <a href="/api/recipes/export" download className="btn btn-ghost">
            <Download aria-hidden size={18} /> {t('recipes.mine.exportAll')}
          </a>
        ) : null}
        <Button variant="outline" onClick={() => setImporting(true)}>
          <Import aria-hidden size={18} /> {t('recipes.mine.import')}
        </Button>
        <Button variant="outline" onClick={() => setAdding(true)}>
          <Plus aria-hidden size={18} /> {t('recipes.mine.addOwn')}
        </Button>
      </div>
      {error ? (
        <div role="alert" className="alert alert-error">
          <div>
            <p className="font-semibold">{t('recipes.mine.loadError')}</p>
            <p>{t('recipes.mine.loadErrorText')}</p>
          </div>
        </div>
      ) : isLoading || !data ? (
        <Spinner label={t('recipes.mine.loading')} />
      ) : data.length === 0 ? (
        <p className="py-10 text-center text-lg">{t('recipes.mine.empty')}</p>
      ) : (
        <ul
          className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3"
          aria-label={t('recipes.mine.list')}
        >
          {data.map((r) => (
            <li key={r.id} className="card min-w-0 border border-base-300 bg-base-100">
              {r.photoId ? (
                <figure>
                  <img
                    src={`/api/media/${r.photoId}?size=medium`}
                    alt=""
                    loading="lazy"
                    className="h-40 w-full object-cover"
                  />
                </figure>
              ) : null}
              <div className="card-body gap-2">
                <div className="flex items-start justify-between gap-2">
                  <h2 className="card-title min-w-0 wrap-anywhere">{r.title}</h2>
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm btn-square shrink-0"
                    aria-label={t('recipes.mine.deleteNamed', { title: r.title })}
                    onClick={() => deletion.ask(r)}
                  >
                    <Trash2 aria-hidden size={18} />
                  </button>
                </div>
                <p className="text-sm text-base-content/70">
                  {r.source === 'own'
                    ? t('recipes.mine.prepOwn', { minutes: r.preparationTime })
                    : r.source === 'imported'
                      ? t('recipes.mine.prepImported', { minutes: r.preparationTime })
                      : t('recipes.details.prep', { minutes: r.preparationTime })}
                </p>
                {r.allergyWarnings.length > 0 ? (
                  <p className="badge badge-warning gap-1">
                    <ShieldAlert aria-hidden size={14} /> {t('recipes.allergyWarning')}
                  </p>
                ) : null}
                <SafetyNotes notes={r.safetyNotes} className="text-xs" />
                {r.description ? <p className="line-clamp-3">{r.description}</p> : null}
                {r.dietaryRestrictions.length > 0 ? (
                  <ul className="flex flex-wrap gap-1" aria-label={t('recipes.details.dietary')}>
                    {r.dietaryRestrictions.map((d) => (
                      <li key={d} className="badge badge-outline badge-sm">
                        {d}
                      </li>
                    ))}
                  </ul>
                ) : null}
                <div className="card-actions mt-auto">
                  <Link to={pathTo(routes.recipe, { id: r.id })} className="btn btn-sm btn-primary">
                    {t('recipes.mine.view')}
                  </Link>
                </div>
              </div>
            </li>
          ))}
        </ul>
      )}
      <ConfirmDialog
        {...deletion.dialog}
        title={t('recipes.delete.title')}
        message={
          deletion.target?.title
            ? t('recipes.delete.message', { title: deletion.target.title })
            : t('recipes.delete.messageUnnamed')
        }
        confirmLabel={t('common.delete')}
      />
      <Modal open={adding} title={t('recipes.mine.addOwn')} onClose={() => setAdding(false)} wide>
        <RecipeForm
          onCancel={() => setAdding(false)}
          onSave={async (content, sourceUrl) => {
            try {
              await save(content, 'own', { sourceUrl });
              toast({ variant: 'success', title: t('recipes.savedSuccessfully') });
              setAdding(false);
              return undefined;
            } catch (err) {
              return fail(err, t('recipes.errors.saving'));
            }
          }}
        />
      </Modal>
      <Modal
        open={importing}
        title={t('recipes.mine.import')}
        onClose={() => setImporting(false)}
        wide
      >
        {importing ? <ImportRecipe onDone={() => setImporting(false)} /> : null}
      </Modal>
    </div>
  );
}
