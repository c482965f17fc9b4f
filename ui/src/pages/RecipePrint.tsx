import { Printer, TriangleAlert } from 'lucide-react';
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
  const { id = '' } = useParams();
  const { data: recipe, error } = useRecipe(id);
  const back = pathTo(routes.recipe, { id });
  if (error && !recipe) {
    return (
      <section className="mx-auto max-w-2xl px-4 py-10">
        <div role="alert" className="alert alert-error">
          <div>
            <p className="font-semibold">Error fetching recipes</p>
            <p>{error instanceof Error ? error.message : 'An unexpected error occurred'}</p>
          </div>
        </div>
        <Link to={routes.recipes} className="btn btn-link mt-4 px-0">
          Back to Recipes
        </Link>
      </section>
    );
  }
  if (!recipe) return <Spinner label="Loading the recipe" />;
  const times = [
    recipe.servings ? `Serves ${recipe.servings}` : null,
    recipe.preparationTime ? `Prep ${recipe.preparationTime} min` : null,
    recipe.cookingTime != null ? `Cook ${recipe.cookingTime} min` : null,
  ].filter(Boolean);
  return (
    <section className="mx-auto max-w-2xl px-4 py-8 print:max-w-none print:p-0">
      <div className="mb-6 flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link to={back} className="btn btn-link px-0">
          Back to the recipe
        </Link>
        <Button onClick={() => window.print()}>
          <Printer aria-hidden size={18} /> Print
        </Button>
      </div>
      <h1 className="text-2xl font-bold wrap-anywhere">{recipe.title}</h1>
      {times.length > 0 ? <p className="text-sm">{times.join(' · ')}</p> : null}
      {recipe.description ? <p className="mt-2">{recipe.description}</p> : null}
      {recipe.allergyWarnings.length > 0 ? (
        <div className="mt-3 border-l-4 border-warning pl-3">
          <p className="flex items-center gap-1 font-semibold">
            <TriangleAlert aria-hidden size={16} /> Allergy warning
          </p>
          <ul className="list-disc pl-5">
            {recipe.allergyWarnings.map((w) => (
              <li key={w}>{w}</li>
            ))}
          </ul>
        </div>
      ) : null}
      <SafetyNotes notes={recipe.safetyNotes} className="mt-3 text-sm" />
      <h2 className="mt-4 border-b border-base-300 font-semibold">Ingredients</h2>
      <ul className="mt-1 list-disc pl-5">
        {recipe.ingredients.map((i, k) => (
          <li key={k}>{`${i.quantity} ${i.name}`.trim()}</li>
        ))}
      </ul>
      <h2 className="mt-4 border-b border-base-300 font-semibold">Method</h2>
      <ol className="mt-1 list-decimal space-y-1 pl-5">
        {recipe.instructions.map((step, k) => (
          <li key={k}>{step}</li>
        ))}
      </ol>
      {recipe.tips.length > 0 ? (
        <>
          <h2 className="mt-4 border-b border-base-300 font-semibold">Tips</h2>
          <ul className="mt-1 list-disc pl-5">
            {recipe.tips.map((t) => (
              <li key={t}>{t}</li>
            ))}
          </ul>
        </>
      ) : null}
      {recipe.sourceUrl ? (
        <p className="mt-4 text-sm wrap-anywhere">Source: {recipe.sourceUrl}</p>
      ) : null}
    </section>
  );
}
