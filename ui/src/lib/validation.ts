/**
 * Client-side checks with the spec's texts (section 5). The server checks the same rules; its
 * limits come from the server itself (`src/api/rules.json`, what `/api/site` serves as `rules`).
 */
import i18n from 'i18next';

import { rules } from '../api/rules';

export const EMAIL_MAX = rules.emailMax;
export const GENERAL_TEXT_MAX = rules.generalTextMax;
export const NAME_MAX = rules.nameMax;

/**
 * Text over a limit, naming the field as the server does ("Name must be 100 characters or less");
 * `label` is the field's name in the reader's language.
 */
export function tooLong(label: string, max: number): string {
  return i18n.t('validation.tooLong', { label, max });
}

/** Mirrors the server's e-mail rule: local@domain.tld, no spaces, at most 254 characters. */
export function isValidEmail(input: string): boolean {
  const text = input.trim();
  if (!text || [...text].length > EMAIL_MAX) return false;
  const at = text.lastIndexOf('@');
  if (at <= 0) return false;
  const local = text.slice(0, at);
  const domain = text.slice(at + 1);
  const bad = /[\s<>()[\]\\,;:"@]/;
  if (local.length > 64 || bad.test(local) || bad.test(domain)) return false;
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) return false;
  const labels = domain.split('.');
  if (labels.length < 2) return false;
  const labelOk = (l: string) =>
    l.length > 0 &&
    l.length <= 63 &&
    !l.startsWith('-') &&
    !l.endsWith('-') &&
    /^[\p{L}\p{N}-]+$/u.test(l);
  if (!labels.every(labelOk)) return false;
  const tld = labels[labels.length - 1] ?? '';
  return [...tld].length >= 2 && !/^\d+$/.test(tld);
}

const length = (s: string) => [...s.trim()].length;

export interface ContactValues {
  name: string;
  email: string;
  message: string;
}

export type FieldErrors<T> = Partial<Record<keyof T, string>>;

export function validateContact(values: ContactValues): FieldErrors<ContactValues> {
  const errors: FieldErrors<ContactValues> = {};
  const name = values.name.trim().split(/\s+/).join(' ');
  if (length(name) < 2) errors.name = i18n.t('validation.nameMin', { min: 2 });
  else if (length(name) > NAME_MAX)
    errors.name = tooLong(i18n.t('validation.field.name'), NAME_MAX);
  if (!isValidEmail(values.email)) errors.email = i18n.t('validation.emailInvalid');
  if (length(values.message) < 10) errors.message = i18n.t('validation.messageMin', { min: 10 });
  else if (length(values.message) > GENERAL_TEXT_MAX)
    errors.message = tooLong(i18n.t('validation.field.message'), GENERAL_TEXT_MAX);
  return errors;
}

/** A failed check: the spec's toast title and message, and the field to mark. */
export interface Problem {
  title: string;
  message: string;
  field?: string;
  /** Further fields with the same problem (every empty required field is marked). */
  also?: string[];
}

export const PASSWORD_MIN = rules.passwordMin;

export function checkLogin(email: string, password: string): Problem | null {
  if (!email.trim() || !password) {
    return {
      title: i18n.t('validation.missingTitle'),
      message: i18n.t('validation.loginMissing'),
    };
  }
  return null;
}

export interface SignupValues {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
  acceptTerms: boolean;
}

export function checkSignup(v: SignupValues): Problem | null {
  const missing = (['firstName', 'lastName', 'email', 'password'] as const).filter((f) =>
    f === 'password' ? !v.password : !v[f].trim(),
  );
  if (missing.length > 0) {
    return {
      title: i18n.t('validation.missingTitle'),
      message: i18n.t('validation.signupMissing'),
      field: missing[0],
      also: missing.slice(1),
    };
  }
  for (const f of ['firstName', 'lastName'] as const) {
    if (length(v[f]) > NAME_MAX)
      return {
        title: i18n.t('auth.failed.signUp'),
        message: tooLong(
          i18n.t(f === 'firstName' ? 'validation.field.firstName' : 'validation.field.lastName'),
          NAME_MAX,
        ),
        field: f,
      };
  }
  if (!isValidEmail(v.email)) {
    return {
      title: i18n.t('validation.emailInvalidTitle'),
      message: i18n.t('validation.emailInvalid'),
      field: 'email',
    };
  }
  const password = checkPassword(v.password);
  if (password) return password;
  if (!v.acceptTerms) {
    return {
      title: i18n.t('validation.termsTitle'),
      message: i18n.t('validation.terms'),
      field: 'acceptTerms',
    };
  }
  return null;
}

export function checkPassword(password: string): Problem | null {
  if ([...password].length < PASSWORD_MIN) {
    return {
      title: i18n.t('validation.passwordShortTitle'),
      message: i18n.t('validation.passwordShort', { min: PASSWORD_MIN }),
      field: 'password',
    };
  }
  return null;
}

/** Guest children: 1 to 10, falling back to 1 when the value is not a number (spec section 5). */
export function guestChildren(input: string): number {
  const n = Math.trunc(Number(input));
  if (!input.trim() || !Number.isFinite(n)) return 1;
  return Math.min(GUEST_CHILDREN_MAX, Math.max(1, n));
}

export const GUEST_CHILDREN_MAX = rules.guestChildrenMax;

/** The field message for more children than a guest may have; null when the number is fine. */
export function guestChildrenError(input: string): string | null {
  return Math.trunc(Number(input)) > GUEST_CHILDREN_MAX
    ? i18n.t('validation.guestTooMany', { count: GUEST_CHILDREN_MAX })
    : null;
}

export function checkGuest(firstName: string): Problem | null {
  if (!firstName.trim()) {
    return {
      title: i18n.t('validation.nameRequiredTitle'),
      message: i18n.t('validation.firstNameRequired'),
      field: 'firstName',
    };
  }
  return null;
}
