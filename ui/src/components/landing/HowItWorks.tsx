import { Baby, ClipboardCheck, UtensilsCrossed } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/** Each step's title and text are keys under `landing.howItWorks.<id>`. */
const steps = [
  { icon: Baby, id: 'addKids' },
  { icon: UtensilsCrossed, id: 'chooseMeals' },
  { icon: ClipboardCheck, id: 'trackFood' },
];

export function HowItWorks() {
  const { t } = useTranslation();
  return (
    <section className="mx-auto max-w-6xl px-4 py-16" aria-labelledby="how-it-works">
      <h2 id="how-it-works" className="text-center text-3xl font-bold">
        {t('landing.howItWorks.title')}
      </h2>
      <ol className="mt-10 grid gap-6 md:grid-cols-3">
        {steps.map((s, i) => (
          <li key={s.id} className="card bg-base-200">
            <div className="card-body items-center text-center">
              <span className="flex h-14 w-14 items-center justify-center rounded-full bg-primary text-primary-content">
                <s.icon aria-hidden />
              </span>
              <p className="text-sm font-semibold text-primary">
                {t('landing.howItWorks.step', { number: i + 1 })}
              </p>
              <h3 className="card-title">{t(`landing.howItWorks.${s.id}.title`)}</h3>
              <p className="text-base-content/80">{t(`landing.howItWorks.${s.id}.text`)}</p>
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
