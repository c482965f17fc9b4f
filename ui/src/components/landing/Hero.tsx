import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { routes } from '../../routes';

export function Hero() {
  const { t } = useTranslation();
  return (
    <section className="bg-gradient-to-b from-base-200 to-base-100">
      <div className="mx-auto grid max-w-6xl items-center gap-10 px-4 py-14 md:grid-cols-2 md:py-20">
        <div>
          <h1 className="text-4xl font-extrabold leading-tight tracking-tight md:text-5xl">
            {t('landing.hero.heading')}
          </h1>
          <p className="mt-5 text-lg text-base-content/80">{t('landing.hero.intro')}</p>
          <div className="mt-8 flex flex-col gap-3 sm:flex-row">
            <Link to={routes.signup} className="btn btn-primary btn-lg">
              {t('landing.getStarted')}
            </Link>
            <Link to={routes.login} className="btn btn-outline btn-lg">
              {t('landing.hero.logIn')}
            </Link>
            <Link to={routes.guest} className="btn btn-ghost btn-lg">
              {t('landing.hero.guest')}
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
  const { t } = useTranslation();
  const meals = [
    { emoji: '😋', type: 'breakfast', child: 'Emma' },
    { emoji: '😐', type: 'lunch', child: 'Noah' },
    { emoji: '😋', type: 'dinner', child: 'Emma' },
  ];
  return (
    <div
      aria-hidden
      className="mx-auto w-full max-w-sm rounded-[2rem] border-8 border-neutral bg-base-100 p-4 shadow-2xl"
    >
      <p className="text-sm font-semibold text-base-content/70">
        {t('landing.hero.preview.today')}
      </p>
      <p className="text-lg font-bold">{t('landing.hero.preview.title')}</p>
      <ul className="mt-3 space-y-3">
        {meals.map((m) => (
          <li key={m.type} className="flex items-center gap-3 rounded-box bg-base-200 p-3">
            <span className="text-2xl">{m.emoji}</span>
            <div className="min-w-0">
              <p className="text-sm font-semibold">
                {t(`landing.hero.preview.${m.type}`)} · {m.child}
              </p>
              <p className="truncate text-sm text-base-content/70">
                {t(`landing.hero.preview.${m.type}Foods`)}
              </p>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
