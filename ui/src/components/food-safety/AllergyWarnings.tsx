import { TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/**
 * What in a recipe one of the family's children is allergic to, in the server's words
 * ("Peanut butter contains peanuts (peanut)"): a saved recipe's page and an imported draft.
 */
export function AllergyWarnings({ warnings }: { warnings: readonly string[] }) {
  const { t } = useTranslation();
  if (warnings.length === 0) return null;
  return (
    <div role="alert" className="alert alert-warning items-start">
      <TriangleAlert aria-hidden className="shrink-0" />
      <div>
        <p className="font-semibold">{t('foodSafety.allergyWarning')}</p>
        <ul className="list-disc pl-5">
          {warnings.map((w, k) => (
            <li key={k}>{w}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}
