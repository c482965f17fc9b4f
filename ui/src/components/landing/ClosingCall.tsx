import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { routes } from '../../routes';

export function ClosingCall() {
  const { t } = useTranslation();
  return (
    <section className="mx-auto max-w-3xl px-4 py-16 text-center" aria-labelledby="get-started">
      <h2 id="get-started" className="text-3xl font-bold">
        {t('landing.closing.title')}
      </h2>
      <p className="mt-3 text-base-content/80">{t('landing.closing.text')}</p>
      <Link to={routes.signup} className="btn btn-primary btn-lg mt-8">
        {t('landing.getStarted')}
      </Link>
      <p className="mt-3 text-sm text-base-content/70">{t('landing.closing.noCard')}</p>
    </section>
  );
}
