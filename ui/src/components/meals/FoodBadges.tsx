import { useTranslation } from 'react-i18next';

/** A meal's foods as badges (a meal card's "what"). */
export function FoodBadges({ foods }: { foods: readonly string[] }) {
  const { t } = useTranslation();
  return (
    <ul className="flex flex-wrap gap-1" aria-label={t('meals.foods')}>
      {foods.map((food) => (
        <li key={food} className="badge badge-outline h-auto min-h-5 py-0.5">
          {food}
        </li>
      ))}
    </ul>
  );
}
