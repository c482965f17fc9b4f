import { ChefHat, ClipboardList, ShoppingCart } from 'lucide-react';
import { Link } from 'react-router-dom';

import { greetingName, useAuth } from '../auth/auth-context';
import { plannedRoutes } from '../routes';

export const featureCards = [
  {
    to: plannedRoutes.recipes,
    title: 'Recipe Generator',
    text: 'Turn the ingredients you have into child-friendly recipes.',
    icon: ChefHat,
  },
  {
    to: plannedRoutes.mealTracker,
    title: 'Meal Tracker',
    text: 'Record what each child ate, how much, and how it went.',
    icon: ClipboardList,
  },
  {
    to: plannedRoutes.groceryList,
    title: 'Grocery List',
    text: 'Plan the shop and tick items off together.',
    icon: ShoppingCart,
  },
];

/** The signed-in home, at / and /dashboard. */
export default function Home() {
  const { state } = useAuth();
  return (
    <section className="mx-auto max-w-6xl px-4 py-10">
      <h1 className="text-3xl font-bold">Welcome back, {greetingName(state.user)}!</h1>
      <p className="mt-1 text-base-content/70">What would you like to do today?</p>
      <div className="mt-8 grid gap-4 sm:grid-cols-3">
        {featureCards.map((card) => (
          <Link
            key={card.title}
            to={card.to}
            className="card border border-base-300 bg-base-100 transition hover:border-primary hover:shadow-md"
          >
            <div className="card-body">
              <card.icon aria-hidden className="text-primary" />
              <h2 className="card-title">{card.title}</h2>
              <p className="text-base-content/80">{card.text}</p>
            </div>
          </Link>
        ))}
      </div>
    </section>
  );
}
