import { Leaf, ListChecks, PoundSterling, Store } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/** The five supported UK grocers (brand names: not translated). */
export const GROCERS = ['Tesco', "Sainsbury's", 'Asda', 'Morrisons', 'Waitrose'];

/** Each feature's title and text are keys under `landing.savings.<id>`. */
const features = [
  { icon: ListChecks, id: 'smartLists' },
  { icon: PoundSterling, id: 'costComparison' },
  { icon: Leaf, id: 'reduceWaste' },
  { icon: Store, id: 'stores' },
];

export function Savings() {
  const { t } = useTranslation();
  return (
    <section className="bg-base-200" aria-labelledby="savings">
      <div className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="savings" className="text-center text-3xl font-bold">
          {t('landing.savings.title')}
        </h2>
        <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {features.map((f) => (
            <div key={f.id} className="card bg-base-100">
              <div className="card-body">
                <f.icon className="text-secondary" aria-hidden />
                <h3 className="card-title text-lg">{t(`landing.savings.${f.id}.title`)}</h3>
                <p className="text-base-content/80">{t(`landing.savings.${f.id}.text`)}</p>
              </div>
            </div>
          ))}
        </div>
        <div className="mt-10 text-center">
          <p className="font-semibold">{t('landing.savings.storesLabel')}</p>
          <ul
            className="mt-3 flex flex-wrap justify-center gap-2"
            aria-label={t('landing.savings.storesLabel')}
          >
            {GROCERS.map((g) => (
              <li key={g} className="badge badge-lg badge-outline px-4 py-3">
                {g}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
