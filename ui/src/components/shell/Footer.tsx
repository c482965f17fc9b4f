import { Link } from 'react-router-dom';

import { routes } from '../../routes';
import { LogoMark } from './Logo';

const footerLinks = [
  { to: routes.about, label: 'About' },
  { to: routes.privacy, label: 'Privacy Policy' },
  { to: routes.terms, label: 'Terms of Service' },
  { to: routes.contact, label: 'Contact' },
] as const;

export const TAGLINE = 'Simplifying mealtimes for families';

export function Footer() {
  return (
    <footer className="print:hidden border-t border-base-300 bg-base-200">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-4 py-8 md:flex-row md:items-center md:justify-between">
        <div className="flex items-center gap-3">
          <LogoMark className="h-7 w-7" />
          <div>
            <p className="font-bold">Highchair</p>
            <p className="text-sm text-base-content/70">{TAGLINE}</p>
          </div>
        </div>
        <nav aria-label="Footer" className="flex flex-wrap gap-x-6 gap-y-2 text-sm">
          {footerLinks.map((l) => (
            <Link key={l.to} to={l.to} className="link link-hover">
              {l.label}
            </Link>
          ))}
        </nav>
      </div>
    </footer>
  );
}
