import { Printer, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';

import { SafetyNotes } from '../components/food-safety/SafetyNotes';
import { Button } from '../components/ui/Button';
import { Spinner } from '../components/ui/Spinner';
import { useRecipe } from '../hooks/useRecipes';
import { pathTo, routes } from '../routes';

/**
 * `/recipes/:id/print`: one recipe on paper: ingredients, steps, and what it means for each child
 * (allergy warnings and age notes are printed too: the paper goes to whoever cooks).
 */
export default function RecipePrint() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { data: recipe, error } = useRecipe(id);
  const back = pathTo(routes.recipe, { id });
  if (error && !recipe) {
    return (
      <section className="mx-auto max-w-2xl px-4 py-10">
        <div role="alert" className="alert alert-error">
          <div>
            <p className="font-semibold">{t('recipes.errors.fetching')}</p>
            <p>{error instanceof Error ? error.message : t('common.unexpectedError')}</p>
          </div>
        </div>
        <Link to={routes.recipes} className="btn btn-link mt-4 px-0">
          {t('recipes.print.backToRecipes')}
        </Link>
      </section>
    );
  }
  if (!recipe) return <Spinner label={t('recipes.view.loading')} />;
  const times = [
    recipe.servings ? t('recipes.details.serves', { count: recipe.servings }) : null,
    recipe.preparationTime ? t('recipes.details.prep', { minutes: recipe.preparationTime }) : null,
    recipe.cookingTime != null ? t('recipes.details.cook', { minutes: recipe.cookingTime }) : null,
  ].filter(Boolean);
  return (
    <section className="mx-auto max-w-2xl px-4 py-8 print:max-w-none print:p-0">
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to={back} className="btn btn-link px-0">
          {t('recipes.print.backToRecipe')}
        </Link>
        <Button onClick={() => window.print()}>
          <Printer aria-hidden size={18} /> {t('recipes.view.print')}
        </Button>
      </div>
      <h1 className="text-2xl font-bold wrap-anywhere">{recipe.title}</h1>
      {times.length > 0 ? <p className="text-sm">{times.join(' · ')}</p> : null}
      {recipe.description ? <p className="mt-2">{recipe.description}</p> : null}
      {recipe.allergyWarnings.length > 0 ? (
        <div className="mt-3 border-l-4 border-warning pl-3">
          <p className="flex items-center gap-1 font-semibold">
            <TriangleAlert aria-hidden size={16} /> {t('recipes.allergyWarning')}
          </p>
          <ul className="list-disc pl-5">
            {recipe.allergyWarnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <SafetyNotes notes={recipe.safetyNotes} className="mt-3 text-sm" />
      <h2 className="mt-4 border-b border-base-300 font-semibold">
        {t('recipes.details.ingredients')}
      </h2>
      <ul className="mt-1 list-disc pl-5">
        {recipe.ingredients.map((i, k) => (
          <li key={k}>{`${i.quantity} ${i.name}`.trim()}</li>
        ))}
      </ul>
      <h2 className="mt-4 border-b border-base-300 font-semibold">{t('recipes.print.method')}</h2>
      <ol className="mt-1 list-decimal space-y-1 pl-5">
        {recipe.instructions.map((step, k) => (
          <li key={k}>{step}</li>
        ))}
      </ol>
      {recipe.tips.length > 0 ? (
        <>
          <h2 className="mt-4 border-b border-base-300 font-semibold">{t('recipes.print.tips')}</h2>
          <ul className="mt-1 list-disc pl-5">
            {recipe.tips.map((tip) => (
              <li key={tip}>{tip}</li>
            ))}
          </ul>
        </>
      ) : null}
      {recipe.sourceUrl ? (
        <p className="mt-4 text-sm wrap-anywhere">
          {t('recipes.print.source', { url: recipe.sourceUrl })}
        </p>
      ) : null}
    </section>
  );
}
