import { useTranslation } from 'react-i18next';

/**
 * The food-waste figures the product claims (spec section 1): keys under
 * `landing.foodWaste.figures`, each with its figure and text (metric outside English).
 */
export const wasteFigures = ['perYear', 'thrownAway', 'perMonth', 'co2'] as const;

export function FoodWaste() {
  const { t } = useTranslation();
  return (
    <section className="bg-neutral text-neutral-content" aria-labelledby="food-waste">
      <div className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="food-waste" className="text-center text-3xl font-bold">
          {t('landing.foodWaste.title')}
        </h2>
        <p className="mx-auto mt-3 max-w-2xl text-center text-neutral-content/80">
          {t('landing.foodWaste.intro')}
        </p>
        <dl className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {wasteFigures.map((id) => (
            <div key={id} className="rounded-box bg-neutral-content/10 p-6 text-center">
              <dt className="text-4xl font-extrabold text-accent">
                {t(`landing.foodWaste.figures.${id}.figure`)}
              </dt>
              <dd className="mt-2 text-neutral-content/90">
                {t(`landing.foodWaste.figures.${id}.text`)}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
