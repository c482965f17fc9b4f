import { Suspense } from 'react';
import { Outlet } from 'react-router-dom';

import { Footer } from '../components/Footer';
import { Header } from '../components/Header';
import { TickSync } from '../components/TickSync';
import { Spinner } from '../components/ui/Spinner';
import { useFamilyEvents } from '../hooks/useFamilyEvents';

/**
 * The shell of every screen; for a signed-in user it also follows the family's change feed and
 * sends grocery ticks (queued while offline).
 */
export function MainLayout() {
  useFamilyEvents();
  return (
    <TickSync>
      <div className="flex min-h-dvh flex-col">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-base-100 focus:p-2"
        >
          Skip to content
        </a>
        <Header />
        <main id="main" className="flex-1">
          <Suspense fallback={<Spinner fill />}>
            <Outlet />
          </Suspense>
        </main>
        <Footer />
      </div>
    </TickSync>
  );
}
