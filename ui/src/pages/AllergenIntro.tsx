import { ArrowLeft, Salad, Sparkles } from 'lucide-react';
import { Link, useParams } from 'react-router-dom';

import { ApiFailure } from '../api/client';
import { ChildNotFound } from '../components/children/ChildNotFound';
import { AllergenProgress } from '../components/food-safety/AllergenProgress';
import { useAllergens } from '../hooks/useChildren';
import { pathTo, routes } from '../routes';

/** The guidance the page rests on, linked for parents to read themselves. */
const SOURCES = [
  {
    title: 'NHS: Food allergies in babies and young children',
    url: 'https://www.nhs.uk/conditions/baby/weaning-and-feeding/food-allergies-in-babies-and-young-children/',
  },
  {
    title: 'BSACI: Early feeding guidance (introducing allergens)',
    url: 'https://www.bsaci.org/professional-resources/resources/early-feeding-guidance/',
  },
  {
    title: 'NIAID: Guidelines for the prevention of peanut allergy (2017 addendum)',
    url: 'https://www.niaid.nih.gov/diseases-conditions/guidelines-clinicians-and-patients-food-allergy',
  },
];

/**
 * `/children/:id/allergens`: allergen introduction for one child, from the meal log (the
 * server's states): what has been given and how often, what has lapsed, what to try next (one
 * at a time), and when to see a doctor. Advice, never a diagnosis.
 */
export default function AllergenIntro() {
  const { id = '' } = useParams();
  const { data, error } = useAllergens(id);

  if (error instanceof ApiFailure && error.status === 404) {
    return <ChildNotFound />;
  }

  const name = data?.childName;
  return (
    <section className="mx-auto max-w-3xl px-4 py-10">
      <Link to={routes.children} className="btn btn-ghost btn-sm -ml-2">
        <ArrowLeft aria-hidden size={16} /> Children
      </Link>
      <h1 className="mt-2 wrap-anywhere text-3xl font-bold">
        {name ? `${name}'s allergens` : 'Allergen introduction'}
      </h1>
      <p className="mt-1 text-base-content/70">
        The common allergens, introduced one at a time from around 6 months and then kept in the
        diet, from the meals you record.
      </p>
      {error ? (
        <p className="mt-6 text-error">Error fetching allergens</p>
      ) : !data ? (
        <div className="mt-6 space-y-3" aria-busy="true" aria-label="Loading allergens">
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
                  <strong>Next to try: {data.next.label}.</strong> Offer it on its own in a meal,
                  early in the day, and keep other meals that day to foods {data.childName} already
                  has. One new allergen at a time, never two in one meal.
                </span>
              </p>
            ) : (
              <p>
                Nothing new to try yet: keep giving what has been started until it is given{' '}
                {data.regularTimes} times, then try the next one.
              </p>
            )}
          </div>
          <AllergenProgress intro={data} />
          <p className="mt-3 text-sm text-base-content/70">
            Allergen list: {data.regionTitle}.{' '}
            <Link to={routes.profile} className="link">
              Change the list in your family settings
            </Link>
          </p>
          <div className="mt-6 space-y-2 text-sm">
            <h2 className="text-lg font-semibold">When to see a doctor</h2>
            <p>
              This page is not medical advice. Talk to your GP or health visitor before starting if{' '}
              {data.childName} has eczema, an existing food allergy, or allergies in the family. If
              a food causes a reaction, stop giving it and see a doctor; call 999 (or your emergency
              number) for swelling of the face or tongue, difficulty breathing, or sudden
              floppiness.
            </p>
            <h2 className="pt-2 text-lg font-semibold">Sources</h2>
            <ul className="list-disc pl-5">
              {SOURCES.map((s) => (
                <li key={s.url}>
                  <a className="link" href={s.url} target="_blank" rel="noreferrer">
                    {s.title}
                  </a>
                </li>
              ))}
            </ul>
          </div>
          <Link to={pathTo(routes.childFoods, { id })} className="btn btn-ghost btn-sm mt-6 -ml-2">
            <Salad aria-hidden size={16} /> {data.childName}'s food history
          </Link>
        </>
      )}
    </section>
  );
}
