import { Info, ShieldAlert, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';

import type { FoodCheck, FoodWarning } from '../../hooks/useFoodCheck';

/** Each kind's heading ("Allergy for Emma (3 years): Peanut butter"), as a catalogue key. */
const KIND_HEADING: Record<FoodWarning['kind'], string> = {
  allergen: 'foodSafety.warning.allergen',
  choking: 'foodSafety.warning.choking',
  age: 'foodSafety.warning.age',
};

/**
 * What the foods being chosen mean for one child, where the foods are: allergens, choking
 * hazards and age rules, each with what to do instead and its source. A food described as
 * prepared the safe way shows the advice without the alarm. Warnings never stop a save.
 */
export function FoodWarnings({ check }: { check: FoodCheck | null }) {
  const { t, i18n } = useTranslation();
  // The rules' sources are English pages: said so in any other language.
  const english = (i18n.resolvedLanguage ?? 'en').startsWith('en');
  if (!check) return null;
  const { warnings, prompt, introduction } = check;
  if (warnings.length === 0 && !prompt && !introduction) return null;
  const who = check.age ? `${check.childName} (${check.age})` : check.childName;
  return (
    <div className="space-y-2" aria-live="polite">
      {warnings.length > 0 ? (
        <ul
          className="space-y-2"
          aria-label={t('foodSafety.warning.listLabel', { name: check.childName })}
        >
          {warnings.map((w) => (
            <li
              key={`${w.kind}-${w.food}-${w.note}`}
              className={`alert items-start py-2 ${
                w.kind === 'allergen'
                  ? 'alert-error'
                  : w.prepared
                    ? 'alert-info alert-soft'
                    : 'alert-warning'
              }`}
            >
              {w.kind === 'allergen' ? (
                <ShieldAlert aria-hidden size={18} className="mt-0.5 shrink-0" />
              ) : w.prepared ? (
                <Info aria-hidden size={18} className="mt-0.5 shrink-0" />
              ) : (
                <TriangleAlert aria-hidden size={18} className="mt-0.5 shrink-0" />
              )}
              <div className="min-w-0 text-sm wrap-anywhere">
                <p className="font-semibold">{t(KIND_HEADING[w.kind], { who, food: w.food })}</p>
                <p>
                  {w.message}
                  {w.allergy ? ` ${t('foodSafety.warning.allergy', { allergy: w.allergy })}` : ''}
                </p>
                <p>{w.advice}</p>
                {w.source ? (
                  <p className="text-xs opacity-80">
                    {t('foodSafety.warning.source')}{' '}
                    <a
                      className="link"
                      href={w.source.url}
                      hrefLang="en"
                      target="_blank"
                      rel="noreferrer"
                    >
                      {w.source.publisher}, {w.source.title}
                    </a>
                    {english ? null : ` ${t('foodSafety.warning.inEnglish')}`}
                  </p>
                ) : null}
              </div>
            </li>
          ))}
        </ul>
      ) : null}
      {introduction ? (
        <p className="alert alert-info alert-soft py-2 text-sm">
          <Info aria-hidden size={18} className="shrink-0" /> {introduction}
        </p>
      ) : null}
      {prompt ? (
        <p className="flex gap-1 text-sm text-base-content/70">
          <Info aria-hidden size={16} className="mt-0.5 shrink-0" /> {prompt}
        </p>
      ) : null}
    </div>
  );
}
