import { useId, useState } from 'react';

import type { RecipeContent } from '../../hooks/useRecipes';
import { difficultyLabel, formatMoney, unknownMoney } from '../../lib/recipes';

interface RecipeDetailsProps {
  recipe: RecipeContent;
  /** The server's currency, for a cost without one. */
  currency: string;
  /** The heading level of the title (h2 in the carousel, h1 on the recipe's own page). */
  as?: 'h1' | 'h2';
}

/** One recipe in full: badges, ingredients and steps (tabs), tips, substitutions, nutrition. */
export function RecipeDetails({ recipe, currency, as: Title = 'h2' }: RecipeDetailsProps) {
  const [tab, setTab] = useState<'ingredients' | 'instructions'>('ingredients');
  const id = useId();
  const cost = recipe.estimatedCost
    ? formatMoney(recipe.estimatedCost.amount, recipe.estimatedCost.currency || currency)
    : unknownMoney(currency);
  const n = recipe.nutritionalInfo;
  return (
    <article className="space-y-4">
      <header>
        <Title className="wrap-anywhere text-2xl font-bold">{recipe.title}</Title>
        {recipe.description ? (
          <p className="mt-1 text-base-content/80">{recipe.description}</p>
        ) : null}
      </header>
      <ul className="flex flex-wrap gap-2" aria-label="About this recipe">
        {recipe.servings ? <li className="badge badge-outline">Serves {recipe.servings}</li> : null}
        <li className="badge badge-outline">Prep {recipe.preparationTime} min</li>
        {recipe.cookingTime != null ? (
          <li className="badge badge-outline">Cook {recipe.cookingTime} min</li>
        ) : null}
        <li className="badge badge-outline">{difficultyLabel(recipe.difficulty)}</li>
        <li className="badge badge-outline">Est. Cost {cost}</li>
      </ul>
      {recipe.dietaryRestrictions.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label="Dietary information">
          {recipe.dietaryRestrictions.map((d) => (
            <li key={d} className="badge badge-success badge-outline">
              {d}
            </li>
          ))}
        </ul>
      ) : null}
      <div role="tablist" className="tabs tabs-bordered" aria-label="Recipe">
        {(['ingredients', 'instructions'] as const).map((t) => (
          <button
            key={t}
            type="button"
            role="tab"
            id={`${id}-${t}`}
            aria-controls={`${id}-${t}-panel`}
            aria-selected={tab === t}
            className={`tab ${tab === t ? 'tab-active' : 'text-base-content/80'}`}
            onClick={() => setTab(t)}
          >
            {t === 'ingredients' ? 'Ingredients' : 'Instructions'}
          </button>
        ))}
      </div>
      <div role="tabpanel" id={`${id}-${tab}-panel`} aria-labelledby={`${id}-${tab}`}>
        {tab === 'ingredients' ? (
          <ul className="space-y-1">
            {recipe.ingredients.map((i, k) => (
              <li key={`${i.name}-${k}`} className="flex gap-2">
                <span className="min-w-16 font-medium">{i.quantity}</span>
                <span className="wrap-anywhere">{i.name}</span>
              </li>
            ))}
          </ul>
        ) : (
          <ol className="list-decimal space-y-2 pl-5">
            {recipe.instructions.map((step, k) => (
              <li key={k} className="wrap-anywhere">
                {step}
              </li>
            ))}
          </ol>
        )}
      </div>
      {recipe.tips.length > 0 ? (
        <section>
          <h3 className="font-semibold">Tips &amp; Tricks</h3>
          <ul className="list-disc pl-5">
            {recipe.tips.map((t, k) => (
              <li key={k}>{t}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {recipe.substitutions.length > 0 ? (
        <section>
          <h3 className="font-semibold">Substitutions</h3>
          <ul className="list-disc pl-5">
            {recipe.substitutions.map((s, k) => (
              <li key={k}>
                <span className="font-medium">{s.ingredient}</span>: {s.alternatives.join(', ')}
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {n ? (
        <section>
          <h3 className="font-semibold">Nutritional Information</h3>
          <p className="text-sm text-base-content/70">Per serving</p>
          <dl className="mt-1 grid grid-cols-2 gap-2 sm:grid-cols-4">
            {[
              ['Calories', `${Math.round(n.calories)}`],
              ['Protein', `${n.protein} g`],
              ['Carbs', `${n.carbs} g`],
              ['Fat', `${n.fat} g`],
            ].map(([label, value]) => (
              <div key={label} className="rounded-box bg-base-200 p-2 text-center">
                <dt className="text-sm">{label}</dt>
                <dd className="font-semibold">{value}</dd>
              </div>
            ))}
          </dl>
        </section>
      ) : null}
    </article>
  );
}
