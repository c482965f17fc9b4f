import { useId, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';

import type { RecipeContent } from '../../hooks/useRecipes';
import { dateLocale } from '../../lib/dates';
import { dietLabel, difficultyLabel, formatMoney, unknownMoney } from '../../lib/recipes';

interface RecipeDetailsProps {
  recipe: RecipeContent;
  /** The server's currency, for a cost without one. */
  currency: string;
  /** The heading level of the title (h2 in the carousel, h1 on the recipe's own page). */
  as?: 'h1' | 'h2';
}

const TABS = ['ingredients', 'instructions'] as const;

/** One recipe in full: badges, ingredients and steps (tabs), tips, substitutions, nutrition. */
export function RecipeDetails({ recipe, currency, as: Title = 'h2' }: RecipeDetailsProps) {
  const { t } = useTranslation();
  const [tab, setTab] = useState<'ingredients' | 'instructions'>('ingredients');
  const id = useId();
  const cost = recipe.estimatedCost
    ? formatMoney(recipe.estimatedCost.amount, recipe.estimatedCost.currency || currency)
    : unknownMoney(currency);
  const n = recipe.nutritionalInfo;
  const locale = dateLocale();
  const grams = (value: number) =>
    new Intl.NumberFormat(locale, { style: 'unit', unit: 'gram' }).format(value);
  return (
    <article className="space-y-4">
      <header>
        <Title className="wrap-anywhere text-2xl font-bold">{recipe.title}</Title>
        {recipe.description ? (
          <p className="mt-1 text-base-content/80">{recipe.description}</p>
        ) : null}
      </header>
      <ul className="flex flex-wrap gap-2" aria-label={t('recipes.details.about')}>
        {recipe.servings ? (
          <li className="badge badge-outline">
            {t('recipes.details.serves', { count: recipe.servings })}
          </li>
        ) : null}
        <li className="badge badge-outline">
          {t('recipes.details.prep', { minutes: recipe.preparationTime })}
        </li>
        {recipe.cookingTime != null ? (
          <li className="badge badge-outline">
            {t('recipes.details.cook', { minutes: recipe.cookingTime })}
          </li>
        ) : null}
        <li className="badge badge-outline">{difficultyLabel(recipe.difficulty)}</li>
        <li className="badge badge-outline">{t('recipes.details.cost', { cost })}</li>
      </ul>
      {recipe.dietaryRestrictions.length > 0 ? (
        <ul className="flex flex-wrap gap-2" aria-label={t('recipes.details.dietary')}>
          {recipe.dietaryRestrictions.map((d) => (
            <li key={d} className="badge badge-success badge-outline">
              {dietLabel(d)}
            </li>
          ))}
        </ul>
      ) : null}
      <div role="tablist" className="tabs tabs-bordered" aria-label={t('recipes.details.tabs')}>
        {TABS.map((which) => (
          <button
            key={which}
            type="button"
            role="tab"
            id={`${id}-${which}`}
            aria-controls={`${id}-${which}-panel`}
            aria-selected={tab === which}
            className={`tab ${tab === which ? 'tab-active' : 'text-base-content/80'}`}
            onClick={() => setTab(which)}
          >
            {which === 'ingredients'
              ? t('recipes.details.ingredients')
              : t('recipes.details.instructions')}
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
          <h3 className="font-semibold">{t('recipes.details.tips')}</h3>
          <ul className="list-disc pl-5">
            {recipe.tips.map((tip, k) => (
              <li key={k}>{tip}</li>
            ))}
          </ul>
        </section>
      ) : null}
      {recipe.substitutions.length > 0 ? (
        <section>
          <h3 className="font-semibold">{t('recipes.details.substitutions')}</h3>
          <ul className="list-disc pl-5">
            {recipe.substitutions.map((s, k) => (
              <li key={k}>
                <Trans
                  i18nKey="recipes.details.substitution"
                  values={{ alternatives: s.alternatives.join(', ') }}
                  components={{ ingredient: <span className="font-medium">{s.ingredient}</span> }}
                />
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {n ? (
        <section>
          <h3 className="font-semibold">{t('recipes.details.nutrition')}</h3>
          <p className="text-sm text-base-content/70">{t('recipes.details.perServing')}</p>
          <dl className="mt-1 grid grid-cols-2 gap-2 sm:grid-cols-4">
            {[
              [t('recipes.details.calories'), Math.round(n.calories).toLocaleString(locale)],
              [t('recipes.details.protein'), grams(n.protein)],
              [t('recipes.details.carbs'), grams(n.carbs)],
              [t('recipes.details.fat'), grams(n.fat)],
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
