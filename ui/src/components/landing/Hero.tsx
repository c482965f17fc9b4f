import { Link } from 'react-router-dom';

import { routes } from '../../routes';

export const HERO_HEADING = "Love in Every Bite – Even When You're Not There.";

export function Hero() {
  return (
    <section className="bg-gradient-to-b from-base-200 to-base-100">
      <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-14 md:grid-cols-2 md:py-20">
        <div>
          <h1 className="text-4xl font-extrabold leading-tight tracking-tight md:text-5xl">
            {HERO_HEADING}
          </h1>
          <p className="mt-5 text-lg text-base-content/80">
            Track what your little ones eat, turn the ingredients in your kitchen into
            child-friendly recipes, and keep every parent in the loop – all from a server in your
            own home.
          </p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link to={routes.signup} className="btn btn-primary btn-lg">
              Get Started Free
            </Link>
            <Link to={routes.login} className="btn btn-outline btn-lg">
              Log In
            </Link>
            <Link to={routes.guest} className="btn btn-ghost btn-lg">
              Continue as Guest
            </Link>
          </div>
        </div>
        <HeroPreview />
      </div>
    </section>
  );
}

/** A drawn preview of a day's meal log (no images to fetch). */
function HeroPreview() {
  const meals = [
    { emoji: '😋', type: 'Breakfast', foods: 'Porridge, blueberries', child: 'Emma' },
    { emoji: '😐', type: 'Lunch', foods: 'Pasta, peas, cheese', child: 'Noah' },
    { emoji: '😋', type: 'Dinner', foods: 'Fish pie, carrots', child: 'Emma' },
  ];
  return (
    <div
      aria-hidden
      className="mx-auto w-full max-w-sm rounded-[2rem] border-8 border-neutral bg-base-100 p-4 shadow-2xl"
    >
      <p className="text-sm font-semibold text-base-content/70">Today</p>
      <p className="text-lg font-bold">Meal Tracker</p>
      <ul className="mt-3 space-y-3">
        {meals.map((m) => (
          <li key={m.type} className="flex items-center gap-3 rounded-box bg-base-200 p-3">
            <span className="text-2xl">{m.emoji}</span>
            <div className="min-w-0">
              <p className="text-sm font-semibold">
                {m.type} · {m.child}
              </p>
              <p className="truncate text-sm text-base-content/70">{m.foods}</p>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
