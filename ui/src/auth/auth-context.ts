import i18n from 'i18next';
import { createContext, useContext } from 'react';

import type { Schemas } from '../api/client';

export type User = Schemas['Profile'];

export type AuthState =
  | { status: 'loading'; user: null }
  | { status: 'signedIn'; user: User }
  | { status: 'signedOut'; user: null };

export interface SignupForm {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  role: 'mom' | 'dad';
  acceptTerms: boolean;
}

export interface AuthContextValue {
  state: AuthState;
  /** Each of these throws an `ApiFailure` with the server's texts on failure. */
  login: (email: string, password: string) => Promise<User>;
  signup: (form: SignupForm) => Promise<User>;
  startGuest: (firstName: string, children: number) => Promise<User>;
  resetPassword: (token: string, password: string) => Promise<User>;
  /** Joins the family of an invite link: signed in, or as a new account from `form`. */
  joinFamily: (token: string, form?: SignupForm) => Promise<User>;
  logout: () => Promise<void>;
  /** Replaces the signed-in user after a profile change. */
  updateUser: (user: User) => void;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

/** The auth state and actions. Using it outside `<AuthProvider>` is an error (spec section 8). */
export function useAuth(): AuthContextValue {
  const context = useContext(AuthContext);
  if (!context) {
    throw new Error('useAuth must be used inside <AuthProvider>');
  }
  return context;
}

/** 'there' (in the reader's language) when there is no name; guests without their `Guest_` prefix. */
export function greetingName(user: User | null): string {
  const name = user?.firstName.replace(/^Guest_/, '').trim();
  return name || i18n.t('auth.greetingFallback');
}

/** Where this tab remembers an account it has just created (sign-up, guest entry). */
const NEW_ACCOUNT = 'highchair.newAccount';

/** Remembers that `user` was created in this tab, or (null) that the last entry was a sign-in. */
export function rememberNewAccount(user: User | null) {
  try {
    if (user) sessionStorage.setItem(NEW_ACCOUNT, user.id);
    else sessionStorage.removeItem(NEW_ACCOUNT);
  } catch {
    // No storage (private mode): a new account is greeted as a returning one.
  }
}

/** Whether `user` was created in this tab: greeted 'Welcome', not 'Welcome back'. */
export function isNewAccount(user: User | null): boolean {
  try {
    return user !== null && sessionStorage.getItem(NEW_ACCOUNT) === user.id;
  } catch {
    return false;
  }
}
