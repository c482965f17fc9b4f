import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useLocation } from 'react-router-dom';

import { useAuth } from '../auth/auth-context';
import { Spinner } from '../components/ui/Spinner';
import { routes } from '../routes';

/** Where a sign-in should return to, carried in the router's location state. */
export interface ReturnTo {
  from?: string;
}

/** Owner screens: a spinner while the session loads, /login without one (and back after). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const { state } = useAuth();
  const location = useLocation();
  if (state.status === 'loading') return <Spinner label={t('shell.checkingSession')} fill />;
  if (state.status === 'signedOut') {
    const from = `${location.pathname}${location.search}`;
    return <Navigate to={routes.login} replace state={{ from } satisfies ReturnTo} />;
  }
  return <>{children}</>;
}

/** `/`: the landing page for visitors, the home screen for a signed-in user. */
export function HomeOrLanding({ home, landing }: { home: ReactNode; landing: ReactNode }) {
  const { state } = useAuth();
  if (state.status === 'loading') return <Spinner fill />;
  return <>{state.status === 'signedIn' ? home : landing}</>;
}

/** The page to go to after signing in: back where the visitor came from, or the dashboard. */
export function afterSignIn(state: unknown): string {
  const from = (state as ReturnTo | null)?.from;
  return from && from.startsWith('/') && !from.startsWith('//') ? from : routes.dashboard;
}
