import { ArrowLeft } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { routes } from '../../routes';

/** A child's page for a child not in this family (removed, or a mistyped link). */
export function ChildNotFound() {
  const { t } = useTranslation();
  return (
    <section className="mx-auto max-w-3xl px-4 py-10">
      <h1 className="text-3xl font-bold">{t('children.notFound.title')}</h1>
      <p className="mt-2 text-base-content/70">{t('children.notFound.text')}</p>
      <Link to={routes.children} className="btn btn-primary mt-6">
        <ArrowLeft aria-hidden size={16} /> {t('children.notFound.back')}
      </Link>
    </section>
  );
}
