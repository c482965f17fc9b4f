import { Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet } from 'react-router-dom';

import { TickSync } from '../components/grocery/TickSync';
import { Footer } from '../components/shell/Footer';
import { Header } from '../components/shell/Header';
import { Spinner } from '../components/ui/Spinner';
import { useFamilyEvents } from '../hooks/useFamilyEvents';

/** Skip link, a header, the page and the footer: every screen's frame. */
export function Shell({ header, children }: { header: ReactNode; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="flex min-h-dvh flex-col">
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-base-100 focus:p-2"
      >
        {t('shell.skipToContent')}
      </a>
      {header}
      <main id="main" className="flex-1">
        {children}
      </main>
      <Footer />
    </div>
  );
}

/**
 * The shell of every screen but a co-parent's; for a signed-in user it also follows the
 * family's change feed and sends grocery ticks (queued while offline).
 */
export function MainLayout() {
  useFamilyEvents();
  return (
    <TickSync>
      <Shell header={<Header />}>
        <Suspense fallback={<Spinner fill />}>
          <Outlet />
        </Suspense>
      </Shell>
    </TickSync>
  );
}
