import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { routes } from '../routes';

/** Any path the UI does not know. The server answers 404 and logs the path. */
export default function NotFound() {
  const { t } = useTranslation();
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center px-4 py-24 text-center">
      <p className="text-7xl font-extrabold text-primary">404</p>
      <h1 className="mt-4 text-2xl font-bold">{t('notFound.title')}</h1>
      <p className="mt-2 text-base-content/70">{t('notFound.text')}</p>
      <Link to={routes.home} className="btn btn-primary mt-8">
        {t('notFound.home')}
      </Link>
    </section>
  );
}
