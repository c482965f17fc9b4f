import { ArrowLeft, Salad, Sparkles } from 'lucide-react';
import { Trans, useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router-dom';

import { ApiFailure } from '../api/client';
import { ChildNotFound } from '../components/children/ChildNotFound';
import { AllergenProgress } from '../components/food-safety/AllergenProgress';
import { useAllergens } from '../hooks/useChildren';
import { pathTo, routes } from '../routes';

/** The guidance the page rests on, linked for parents to read themselves. */
const SOURCES = [
  {
    titleKey: 'foodSafety.intro.sources.nhs',
    url: 'https://www.nhs.uk/conditions/baby/weaning-and-feeding/food-allergies-in-babies-and-young-children/',
  },
  {
    titleKey: 'foodSafety.intro.sources.bsaci',
    url: 'https://www.bsaci.org/professional-resources/resources/early-feeding-guidance/',
  },
  {
    titleKey: 'foodSafety.intro.sources.niaid',
    url: 'https://www.niaid.nih.gov/diseases-conditions/guidelines-clinicians-and-patients-food-allergy',
  },
];

/**
 * `/children/:id/allergens`: allergen introduction for one child, from the meal log (the
 * server's states): what has been given and how often, what has lapsed, what to try next (one
 * at a time), and when to see a doctor. Advice, never a diagnosis.
 */
export default function AllergenIntro() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { data, error } = useAllergens(id);

  if (error instanceof ApiFailure && error.status === 404) {
    return <ChildNotFound />;
  }

  const name = data?.childName;
  return (
    <section className="mx-auto max-w-3xl px-4 py-10">
      <Link to={routes.children} className="btn btn-ghost btn-sm -ml-2">
        <ArrowLeft aria-hidden size={16} /> {t('children.title')}
      </Link>
      <h1 className="mt-2 wrap-anywhere text-3xl font-bold">
        {name ? t('foodSafety.intro.titleOf', { name }) : t('foodSafety.intro.title')}
      </h1>
      <p className="mt-1 text-base-content/70">{t('foodSafety.intro.lead')}</p>
      {error ? (
        <p className="mt-6 text-error">{t('foodSafety.intro.fetchError')}</p>
      ) : !data ? (
        <div className="mt-6 space-y-3" aria-busy="true" aria-label={t('foodSafety.intro.loading')}>
          <div className="skeleton h-6 w-48" />
          <div className="skeleton h-40 w-full" />
        </div>
      ) : (
        <>
          <div className="mt-6 rounded-box border border-base-300 bg-base-100 p-4">
            {data.next ? (
              <p className="flex gap-2">
                <Sparkles aria-hidden size={20} className="mt-0.5 shrink-0 text-primary" />
                <span>
                  <Trans
                    i18nKey="foodSafety.intro.next"
                    values={{ allergen: data.next.label, name: data.childName }}
                    components={{ strong: <strong /> }}
                  />
                </span>
              </p>
            ) : (
              <p>{t('foodSafety.intro.nothingNew', { count: data.regularTimes })}</p>
            )}
          </div>
          <AllergenProgress intro={data} />
          <p className="mt-3 text-sm text-base-content/70">
            {t('foodSafety.intro.list', { title: data.regionTitle })}{' '}
            <Link to={routes.profile} className="link">
              {t('foodSafety.intro.changeList')}
            </Link>
          </p>
          <div className="mt-6 space-y-2 text-sm">
            <h2 className="text-lg font-semibold">{t('foodSafety.intro.doctorTitle')}</h2>
            <p>{t('foodSafety.intro.doctorText', { name: data.childName })}</p>
            <h2 className="pt-2 text-lg font-semibold">{t('foodSafety.intro.sourcesTitle')}</h2>
            <ul className="list-disc pl-5">
              {SOURCES.map((s) => (
                <li key={s.url}>
                  <a className="link" href={s.url} target="_blank" rel="noreferrer">
                    {t(s.titleKey)}
                  </a>
                </li>
              ))}
            </ul>
          </div>
          <Link to={pathTo(routes.childFoods, { id })} className="btn btn-ghost btn-sm mt-6 -ml-2">
            <Salad aria-hidden size={16} />{' '}
            {t('children.foodHistory.titleOf', { name: data.childName })}
          </Link>
        </>
      )}
    </section>
  );
}
