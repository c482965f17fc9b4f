import { Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useParams } from 'react-router-dom';

import { LogoMark, PRODUCT_NAME } from '../components/shell/Logo';
import { Spinner } from '../components/ui/Spinner';
import { pathTo, routes } from '../routes';
import { Shell } from './MainLayout';

/**
 * The shell of a co-parent's pages: they have no account, so the header offers nothing of an
 * owner's (no feature links, no Log In or Sign Up, no side menu), only the way back to their
 * dashboard; the dashboard itself has Logout.
 */
export function CoParentLayout() {
  const { t } = useTranslation();
  const token = (useParams().token ?? '').toLowerCase();
  const home = token ? pathTo(routes.coParentDashboard, { token }) : routes.home;
  return (
    <Shell
      header={
        <header className="print:hidden sticky top-0 z-40 border-b border-base-300 bg-base-100/95 backdrop-blur">
          <div className="mx-auto flex h-16 max-w-6xl items-center gap-2 px-4">
            <Link
              to={home}
              className="flex items-center gap-2 text-xl font-bold"
              aria-label={t(token ? 'shell.header.dashboard' : 'shell.header.home')}
            >
              <LogoMark />
              <span>{PRODUCT_NAME}</span>
            </Link>
          </div>
        </header>
      }
    >
      <Suspense fallback={<Spinner fill />}>
        <Outlet />
      </Suspense>
    </Shell>
  );
}
