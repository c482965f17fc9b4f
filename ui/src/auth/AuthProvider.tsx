import i18n from 'i18next';
import { useCallback, useDeferredValue, useEffect, useMemo, useRef, type ReactNode } from 'react';
import useSWR, { preload, useSWRConfig } from 'swr';

import { api, unwrap } from '../api/client';
import { FAMILY_NOUNS, keys } from '../hooks/keys';
import { forget } from '../hooks/revalidate';
import {
  AuthContext,
  type AuthContextValue,
  type AuthState,
  type SignupForm,
  type User,
  rememberNewAccount,
} from './auth-context';

/** Signed in, joining needs no sign-up fields. */
const NO_FORM = {
  firstName: '',
  lastName: '',
  email: '',
  password: '',
  role: '',
  acceptTerms: false,
};

type Session = { user: User; expiresAt: string } | null;

/** Reads the session; a null user means signed out (the server answers 200 either way). */
async function fetchSession(): Promise<Session> {
  const session = await unwrap(api.GET('/auth/session'), i18n.t('auth.failed.session'));
  return session.user && session.expiresAt
    ? { user: session.user, expiresAt: session.expiresAt }
    : null;
}

/**
 * Asks for the session at once, before the first render, which then finds it on its way: the
 * screen that waits for it (any signed-in page) comes that much sooner.
 */
export function preloadSession(): Promise<Session> {
  return preload(keys.session(), fetchSession);
}

/** The service worker's copies of the family's data (vite.config.ts), gone at sign-out. */
async function forgetOfflineCopies() {
  try {
    await globalThis.caches?.delete('highchair-api');
  } catch {
    // No Cache Storage (plain http, private mode): nothing was kept.
  }
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const { cache, mutate: mutateAny } = useSWRConfig();
  const { data, error, mutate } = useSWR(keys.session(), fetchSession, {
    revalidateOnFocus: true,
    // The server slides the session; asking now and then keeps an expired one from lingering.
    refreshInterval: 5 * 60 * 1000,
  });

  // When the signed-in user changes (signed out here or elsewhere, the session expired or was
  // ended, someone else signs in), nothing of the previous user's family may stay on this
  // browser: neither the service worker's copies nor the screens' cache.
  const userId = data === undefined ? undefined : (data?.user.id ?? null);
  const previous = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    if (userId === undefined) return;
    const before = previous.current;
    previous.current = userId;
    if (before && before !== userId) {
      void forgetOfflineCopies();
      forget(
        { cache, mutate: mutateAny },
        FAMILY_NOUNS.filter((n) => n !== 'session'),
      );
    }
  }, [userId, cache, mutateAny]);

  const state: AuthState = useMemo(() => {
    if (data === undefined && !error) return { status: 'loading', user: null };
    if (data) return { status: 'signedIn', user: data.user };
    // A failed profile load is only logged and leaves no profile (spec section 8).
    if (error) console.error('Could not load the session', error);
    return { status: 'signedOut', user: null };
  }, [data, error]);
  // The first answer changes most of the screen (the header, the guards, the page) and SWR's
  // updates render synchronously: in one block of 50 ms and more on a slow phone. That first
  // change is rendered deferred instead, in small steps; later ones (sign-in, sign-out) at once.
  const settled = useDeferredValue(state);
  const shown = settled.status === 'loading' ? settled : state;

  /** `created`: a new account (sign-up, guest), greeted as new; false: a sign-in. */
  const signedIn = useCallback(
    async (call: Promise<{ user: User; expiresAt: string }>, created = false): Promise<User> => {
      const session = await call;
      rememberNewAccount(created ? session.user : null);
      await mutate(session, { revalidate: false });
      return session.user;
    },
    [mutate],
  );

  const value: AuthContextValue = useMemo(
    () => ({
      state: shown,
      login: (email, password) =>
        signedIn(
          unwrap(
            api.POST('/auth/login', { body: { email, password } }),
            i18n.t('auth.failed.signIn'),
          ),
        ),
      signup: (form: SignupForm) =>
        signedIn(
          unwrap(api.POST('/auth/signup', { body: form }), i18n.t('auth.failed.signUp')),
          true,
        ),
      startGuest: (firstName, childCount) =>
        signedIn(
          unwrap(
            api.POST('/auth/guest', { body: { firstName, children: childCount } }),
            i18n.t('auth.failed.guest'),
          ),
          true,
        ),
      resetPassword: (token, password) =>
        signedIn(
          unwrap(
            api.POST('/auth/reset-password/{token}', {
              params: { path: { token } },
              body: { password },
            }),
            i18n.t('auth.failed.reset'),
          ),
        ),
      joinFamily: (token, form) =>
        signedIn(
          unwrap(
            api.POST('/family/join/{token}', {
              params: { path: { token } },
              body: form ?? NO_FORM,
            }),
            i18n.t('auth.failed.join'),
          ),
          form !== undefined,
        ),
      logout: async () => {
        await unwrap(api.POST('/auth/logout'), i18n.t('auth.failed.signOut'));
        rememberNewAccount(null);
        await forgetOfflineCopies();
        await mutate(null, { revalidate: false });
      },
      updateUser: (user: User) => {
        void mutate((current) => (current ? { ...current, user } : current), { revalidate: false });
      },
    }),
    [shown, signedIn, mutate],
  );

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
