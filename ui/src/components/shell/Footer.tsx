import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';

import { routes } from '../../routes';
import { LogoMark, PRODUCT_NAME } from './Logo';

/** `labelKey`: the label's key in the catalogues. */
const footerLinks = [
  { to: routes.about, labelKey: 'shell.footer.about' },
  { to: routes.privacy, labelKey: 'shell.footer.privacy' },
  { to: routes.terms, labelKey: 'shell.footer.terms' },
  { to: routes.contact, labelKey: 'shell.footer.contact' },
] as const;

/**
 * The spec's tagline, in its English. The footer shows it in the reader's language
 * (`shell.footer.tagline`, whose English is this text).
 */
export const TAGLINE = 'Simplifying mealtimes for families';

export function Footer() {
  const { t } = useTranslation();
  return (
    <footer className="print:hidden border-t border-base-300 bg-base-200">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8 md:flex-row md:items-center md:justify-between">
        <div className="flex items-center gap-3">
          <LogoMark className="h-7 w-7" />
          <div>
            <p className="font-bold">{PRODUCT_NAME}</p>
            <p className="text-sm text-base-content/70">{t('shell.footer.tagline')}</p>
          </div>
        </div>
        <nav aria-label={t('shell.footer.nav')} className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
          {footerLinks.map((l) => (
            <Link key={l.to} to={l.to} className="link link-hover">
              {t(l.labelKey)}
            </Link>
          ))}
        </nav>
      </div>
    </footer>
  );
}
