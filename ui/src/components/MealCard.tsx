import { EllipsisVertical, Trash2 } from 'lucide-react';
import { useState } from 'react';

import type { Meal } from '../hooks/useMeals';
import { feedbackLabel, formatShortDate, moodEmoji, moodLabel, portionLabel } from '../lib/meals';

const PLACEHOLDER = '/meal-placeholder.svg';

interface MealCardProps {
  meal: Meal;
  childName: string | undefined;
  onDelete: (meal: Meal) => void;
}

/** One meal (spec section 2): who, how it went, when, the photo, what and how much. */
export function MealCard({ meal, childName, onDelete }: MealCardProps) {
  const [photoFailed, setPhotoFailed] = useState(false);
  const feedback = feedbackLabel(meal.feedback);
  return (
    <article
      className="card border border-base-300 bg-base-100"
      aria-label={`${meal.mealType} of ${childName ?? 'Unknown Child'}`}
    >
      <div className="card-body gap-3 p-4">
        <header className="flex items-start justify-between gap-2">
          <div>
            <p className="font-semibold">
              {childName ?? 'Unknown Child'}{' '}
              <span role="img" aria-label={moodLabel(meal.mood)}>
                {moodEmoji(meal.mood)}
              </span>
            </p>
            <p className="text-sm text-base-content/70">
              {meal.mealType} · {formatShortDate(meal.mealDate)}
            </p>
          </div>
          <div className="dropdown dropdown-end">
            <button
              type="button"
              tabIndex={0}
              className="btn btn-ghost btn-sm btn-square"
              aria-label="Meal actions"
            >
              <EllipsisVertical aria-hidden size={18} />
            </button>
            <ul
              tabIndex={0}
              className="menu dropdown-content z-10 w-36 rounded-box bg-base-100 p-1 shadow"
              role="menu"
            >
              <li role="none">
                <button
                  type="button"
                  role="menuitem"
                  className="text-error"
                  onClick={() => onDelete(meal)}
                >
                  <Trash2 aria-hidden size={16} /> Delete
                </button>
              </li>
            </ul>
          </div>
        </header>
        {meal.thumbnailUrl ? (
          <a href={meal.photoUrl ?? undefined} target="_blank" rel="noreferrer">
            <img
              src={photoFailed ? PLACEHOLDER : meal.thumbnailUrl}
              alt={`Photo of ${meal.foods.join(', ')}`}
              className="aspect-[4/3] w-full rounded-box bg-base-200 object-cover"
              loading="lazy"
              onError={() => setPhotoFailed(true)}
            />
          </a>
        ) : null}
        <ul className="flex flex-wrap gap-1" aria-label="Foods">
          {meal.foods.map((food) => (
            <li key={food} className="badge badge-outline">
              {food}
            </li>
          ))}
        </ul>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-base-content/70">Portion</dt>
          <dd>{portionLabel(meal.portion)}</dd>
          {feedback ? (
            <>
              <dt className="text-base-content/70">Feedback</dt>
              <dd>{feedback}</dd>
            </>
          ) : null}
        </dl>
        {meal.notes ? (
          <div className="rounded-box bg-base-200 p-3 text-sm">
            <p className="font-medium">Parent Notes</p>
            <p className="whitespace-pre-line">{meal.notes}</p>
          </div>
        ) : null}
      </div>
    </article>
  );
}
