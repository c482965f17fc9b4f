import {
  Banknote,
  DollarSign,
  Euro,
  IndianRupee,
  JapaneseYen,
  Leaf,
  ListChecks,
  PoundSterling,
  RussianRuble,
  Store,
  SwissFranc,
  type LucideIcon,
} from 'lucide-react';
import { useTranslation } from 'react-i18next';

import { useSite } from '../../hooks/useSite';

/** The five supported UK grocers (brand names: not translated). */
export const GROCERS = ['Tesco', "Sainsbury's", 'Asda', 'Morrisons', 'Waitrose'];

/** The icon of each currency symbol that has one. */
const SYMBOL_ICONS: Record<string, LucideIcon> = {
  '£': PoundSterling,
  '€': Euro,
  $: DollarSign,
  '¥': JapaneseYen,
  '₹': IndianRupee,
  '₽': RussianRuble,
  CHF: SwissFranc,
};

/** The symbol of the server's currency as an icon: a banknote for one without (or not known yet). */
function moneyIcon(currency: string | undefined): LucideIcon {
  if (!currency) return Banknote;
  try {
    const symbol = new Intl.NumberFormat('en', {
      style: 'currency',
      currency,
      currencyDisplay: 'narrowSymbol',
    })
      .formatToParts(0)
      .find((p) => p.type === 'currency')?.value;
    return (symbol && SYMBOL_ICONS[symbol]) || Banknote;
  } catch {
    return Banknote;
  }
}

/** Each feature's title and text are keys under `landing.savings.<id>`; the cost comparison's
 * icon is the server's currency. */
const features: { icon?: LucideIcon; id: string }[] = [
  { icon: ListChecks, id: 'smartLists' },
  { id: 'costComparison' },
  { icon: Leaf, id: 'reduceWaste' },
  { icon: Store, id: 'stores' },
];

export function Savings() {
  const { t } = useTranslation();
  const { data: site } = useSite();
  const Money = moneyIcon(site?.currency);
  return (
    <section className="bg-base-200" aria-labelledby="savings">
      <div className="mx-auto max-w-6xl px-4 py-16">
        <h2 id="savings" className="text-center text-3xl font-bold">
          {t('landing.savings.title')}
        </h2>
        <div className="mt-10 grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
          {features.map(({ icon: Icon = Money, id }) => (
            <div key={id} className="card bg-base-100">
              <div className="card-body">
                <Icon className="text-secondary" aria-hidden />
                <h3 className="card-title text-lg">{t(`landing.savings.${id}.title`)}</h3>
                <p className="text-base-content/80">{t(`landing.savings.${id}.text`)}</p>
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
