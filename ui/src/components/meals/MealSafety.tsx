import { TriangleAlert } from 'lucide-react';
import { useTranslation } from 'react-i18next';

import type { Meal } from '../../hooks/useMeals';
import { reactionLabel } from '../../lib/meals';

/**
 * What a meal meant for the child's safety: the foods that met an allergy when it was saved
 * (an exposure) and the reaction the child had. The same on every card that shows a meal, the
 * parents' and the co-parent's.
 */
export function MealSafety({
  meal,
}: {
  meal: Pick<Meal, 'exposures' | 'reaction' | 'reactionNote'>;
}) {
  const { t } = useTranslation();
  return (
    <>
      {meal.exposures.length > 0 ? (
        <div className="rounded-box border border-warning p-3 text-sm">
          <p className="flex items-center gap-1 font-medium">
            <TriangleAlert aria-hidden size={16} /> {t('meals.exposure')}
          </p>
          <ul>
            {meal.exposures.map((e) => (
              <li key={`${e.food}-${e.allergy}`} className="wrap-anywhere">
                {e.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      {meal.reaction !== 'none' ? (
        <p
          className={`rounded-box p-3 text-sm wrap-anywhere ${meal.reaction === 'severe' ? 'bg-error text-error-content' : 'bg-warning text-warning-content'}`}
        >
          <span className="font-medium">{reactionLabel(meal.reaction)}</span>
          {meal.reactionNote ? t('meals.noteAfter', { note: meal.reactionNote }) : null}
        </p>
      ) : null}
    </>
  );
}
