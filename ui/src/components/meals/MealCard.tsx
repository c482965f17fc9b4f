import { EllipsisVertical, Pencil, Trash2 } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { Meal } from '../../hooks/useMeals';
import {
  feedbackLabel,
  formatShortDate,
  mealTypeLabel,
  moodEmoji,
  moodLabel,
  portionLabel,
} from '../../lib/meals';
import { FoodBadges } from './FoodBadges';
import { MealSafety } from './MealSafety';

const PLACEHOLDER = '/meal-placeholder.svg';

interface MealCardProps {
  meal: Meal;
  childName: string | undefined;
  onEdit?: (meal: Meal) => void;
  onDelete: (meal: Meal) => void;
}

/** One meal (spec section 2): who, how it went, when, the photo, what and how much. */
export function MealCard({ meal, childName, onEdit, onDelete }: MealCardProps) {
  const { t } = useTranslation();
  const [photoFailed, setPhotoFailed] = useState(false);
  const feedback = feedbackLabel(meal.feedback);
  const who = childName ?? t('meals.unknownChild');
  const type = mealTypeLabel(meal.mealType);
  const foods = meal.foods.join(', ');
  return (
    <article
      className="card border border-base-300 bg-base-100"
      aria-label={t('meals.card.label', { mealType: type, name: who })}
    >
      <div className="card-body gap-3 p-4">
        <header className="flex items-start justify-between gap-2">
          <div className="min-w-0">
            <p className="font-semibold">
              {who}{' '}
              <span role="img" aria-label={moodLabel(meal.mood)}>
                {moodEmoji(meal.mood)}
              </span>
            </p>
            <p className="text-sm text-base-content/70">
              {type} · {formatShortDate(meal.mealDate)}
            </p>
          </div>
          <ActionsMenu
            onEdit={onEdit ? () => onEdit(meal) : undefined}
            onDelete={() => onDelete(meal)}
          />
        </header>
        {meal.thumbnailUrl ? (
          <a
            href={meal.photoUrl ?? undefined}
            target="_blank"
            rel="noreferrer"
            aria-label={t('meals.card.openPhoto', { foods })}
          >
            <img
              src={photoFailed ? PLACEHOLDER : meal.thumbnailUrl}
              // A phone gets the 1024 px size (the card is ~324 CSS px at 3x), a desktop grid
              // card the thumbnail or the medium size as its density asks.
              srcSet={
                photoFailed || !meal.mediumUrl
                  ? undefined
                  : `${meal.thumbnailUrl} 320w, ${meal.mediumUrl} 1024w`
              }
              sizes="(min-width: 1024px) 320px, (min-width: 640px) 50vw, 100vw"
              alt={t('meals.card.photoOf', { foods })}
              className="aspect-[4/3] w-full rounded-box bg-base-200 object-cover"
              loading="lazy"
              onError={() => setPhotoFailed(true)}
            />
          </a>
        ) : null}
        <FoodBadges foods={meal.foods} />
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="text-base-content/70">{t('meals.portionLabel')}</dt>
          <dd>{portionLabel(meal.portion)}</dd>
          {feedback ? (
            <>
              <dt className="text-base-content/70">{t('meals.feedbackLabel')}</dt>
              <dd>{feedback}</dd>
            </>
          ) : null}
        </dl>
        <MealSafety meal={meal} />
        {meal.notes ? (
          <div className="rounded-box bg-base-200 p-3 text-sm">
            <p className="font-medium">{t('meals.card.parentNotes')}</p>
            <p className="whitespace-pre-line">{meal.notes}</p>
          </div>
        ) : null}
      </div>
    </article>
  );
}

/**
 * The meal's menu button (WAI-ARIA menu button): opens on click, Enter or Space with focus on
 * the first item; Escape, Tab away or a click elsewhere closes it. Choosing an item closes it
 * and puts focus back on the button first, so a dialog the item opens returns focus there.
 */
function ActionsMenu({ onEdit, onDelete }: { onEdit?: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const menu = useRef<HTMLUListElement>(null);

  useEffect(() => {
    if (open) menu.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
  }, [open]);

  const choose = (action: () => void) => {
    setOpen(false);
    button.current?.focus();
    action();
  };

  return (
    <div
      className="relative shrink-0"
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget as Node | null)) setOpen(false);
      }}
      onKeyDown={(e) => {
        if (e.key === 'Escape' && open) {
          e.stopPropagation();
          setOpen(false);
          button.current?.focus();
        }
      }}
    >
      <button
        ref={button}
        type="button"
        className="btn btn-ghost btn-sm btn-square"
        aria-label={t('meals.card.actions')}
        aria-haspopup="menu"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
      >
        <EllipsisVertical aria-hidden size={18} />
      </button>
      {open ? (
        <ul
          ref={menu}
          role="menu"
          aria-label={t('meals.card.actions')}
          className="menu absolute right-0 top-full z-10 mt-1 w-36 rounded-box bg-base-100 p-1 shadow"
        >
          {onEdit ? (
            <li role="none">
              <button type="button" role="menuitem" onClick={() => choose(onEdit)}>
                <Pencil aria-hidden size={16} /> {t('common.edit')}
              </button>
            </li>
          ) : null}
          <li role="none">
            <button
              type="button"
              role="menuitem"
              className="text-error"
              onClick={() => choose(onDelete)}
            >
              <Trash2 aria-hidden size={16} /> {t('common.delete')}
            </button>
          </li>
        </ul>
      ) : null}
    </div>
  );
}
