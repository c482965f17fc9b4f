import { Info, ShieldAlert, TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';

interface PlanWarning {
  childId: string;
  childName: string;
  kind: 'allergen' | 'choking' | 'age';
  message: string;
  advice: string;
  age?: string | null;
  prepared: boolean;
}

/**
 * What a planned meal means for the children it is for (the server's allergen matcher and
 * child food safety rules): the allergies it meets, then the choking hazards and age rules at
 * each child's age, in a few words. On the week view, the co-parent's week and the entry form
 * before it is saved; `detailed` adds what to do instead.
 */
export function PlanWarnings({
  warnings,
  className = 'text-xs',
  detailed = false,
}: {
  warnings: readonly PlanWarning[];
  className?: string;
  detailed?: boolean;
}) {
  const { t } = useTranslation();
  const allergies = warnings.filter((w) => w.kind === 'allergen');
  const safety = warnings.filter((w) => w.kind !== 'allergen');
  return (
    <>
      {allergies.length > 0 ? (
        <ul className={`mt-1 space-y-1 ${className}`} aria-label={t('plan.warnings.allergies')}>
          {allergies.map((w) => (
            <li key={w.childId} className="flex gap-1 text-error">
              <ShieldAlert aria-hidden size={14} className="mt-0.5 shrink-0" />
              <span className="min-w-0 wrap-anywhere">
                {t('plan.warnings.allergic', { name: w.childName, message: w.message })}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
      {safety.length > 0 ? (
        <ul className={`mt-1 space-y-1 ${className}`} aria-label={t('plan.warnings.safety')}>
          {safety.map((w) => (
            <li
              key={`${w.childId}-${w.message}`}
              className={`flex gap-1 ${w.prepared ? 'text-base-content/70' : 'text-warning-content'}`}
            >
              {w.prepared ? (
                <Info aria-hidden size={14} className="mt-0.5 shrink-0" />
              ) : (
                <TriangleAlert aria-hidden size={14} className="mt-0.5 shrink-0 text-warning" />
              )}
              <span className="min-w-0 wrap-anywhere">
                {w.age
                  ? t('plan.warnings.forChildAge', {
                      name: w.childName,
                      age: w.age,
                      message: w.message,
                    })
                  : t('plan.warnings.forChild', { name: w.childName, message: w.message })}
                {detailed ? <span className="block opacity-80">{w.advice}</span> : null}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </>
  );
}
