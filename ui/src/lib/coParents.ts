/**
 * Co-parents as the owner sees them (spec sections 2, 4 and 5): the expiry and state badges,
 * when a link may be extended, and the invite form's checks. The server checks the same rules.
 */
import i18n from 'i18next';

import { rules } from '../api/rules';
import { formatDate, formatDay } from './dates';
import { EMAIL_MAX, NAME_MAX, isValidEmail, tooLong } from './validation';

/** How long an invitation link works (spec section 9), and what Extend adds. */
export const LINK_DAYS = rules.linkDays;
/** A link with less than this left is "expiring": the card offers to extend it. */
export const EXPIRING_WITHIN_MS = 3 * 24 * 60 * 60 * 1000;

/** A date in abbreviated month, day and year, in the browser's order: '20 May 2025'. */
export function formatExpiry(iso: string): string {
  return formatDate(iso, 'medium');
}

/** Expired when the expiry is not after now (spec section 4). */
export function isExpired(expiresAt: string, now: number): boolean {
  return Date.parse(expiresAt) <= now;
}

/** Not yet expired, but within `EXPIRING_WITHIN_MS` of it. */
export function isExpiring(expiresAt: string, now: number): boolean {
  const left = Date.parse(expiresAt) - now;
  return left > 0 && left <= EXPIRING_WITHIN_MS;
}

/** The card's expiry badge: 'Expires: May 20, 2025', or 'Expired' (shown in red). */
export function expiryBadge(expiresAt: string, now: number): { label: string; expired: boolean } {
  return isExpired(expiresAt, now)
    ? { label: i18n.t('coParents.badge.expired'), expired: true }
    : {
        label: i18n.t('coParents.badge.expires', { date: formatExpiry(expiresAt) }),
        expired: false,
      };
}

export type CoParentState = 'pending' | 'active' | 'expired' | 'locked';

/**
 * The access badge: Locked (too many wrong PINs: only a PIN reset opens the link again), else
 * Active or Pending, also for an expired link (which has its Expired badge besides).
 */
export function accessBadge(
  state: CoParentState,
  accepted: boolean,
): 'Active' | 'Pending' | 'Locked' {
  if (state === 'locked') return 'Locked';
  return accepted ? 'Active' : 'Pending';
}

/** The owner may add 7 days to a link that has expired or soon will. */
export function canExtend(expiresAt: string, now: number): boolean {
  return isExpired(expiresAt, now) || isExpiring(expiresAt, now);
}

/** A PIN as the server hands it out: exactly six digits. */
export function isPin(value: unknown): value is string {
  return typeof value === 'string' && value.length === PIN_LENGTH && /^\d+$/.test(value);
}

/** Markup dropped and spaces collapsed, as the server cleans a name before checking it. */
export function cleanName(input: string): string {
  return input
    .replace(/<[^>]*>/g, '')
    .trim()
    .split(/\s+/)
    .join(' ');
}

/** Letters of any alphabet (with their accents), spaces, hyphens and apostrophes. */
const NAME_CHARS = /^[\p{L}\p{M} '\u2019\u2010\u2011-]+$/u;

export function isValidCoParentName(input: string): boolean {
  const name = cleanName(input);
  return NAME_CHARS.test(name) && /\p{L}/u.test(name) && !/^\p{M}/u.test(name);
}

export interface CoParentValues {
  name: string;
  email: string;
}

/** What the invite form's check found: the spec's toast, and the messages under the fields. */
export interface InviteProblem {
  title: string;
  message: string;
  fields: Partial<Record<keyof CoParentValues, string>>;
}

/**
 * The invite form's checks (spec section 5): both required first ('Missing information', with
 * 'Name is required' and 'Email is required' under the fields), then the name's characters and
 * length, then the e-mail.
 */
export function checkCoParent(values: CoParentValues): InviteProblem | null {
  const name = cleanName(values.name);
  const email = values.email.trim();
  if (!name || !email) {
    const fields: InviteProblem['fields'] = {};
    if (!name) fields.name = i18n.t('coParents.check.nameRequired');
    if (!email) fields.email = i18n.t('coParents.check.emailRequired');
    return {
      title: i18n.t('validation.missingTitle'),
      message: i18n.t('coParents.check.missingBoth'),
      fields,
    };
  }
  const problems: InviteProblem[] = [];
  const nameTitle = i18n.t('coParents.check.invalidNameTitle');
  if ([...name].length > NAME_MAX) {
    const message = tooLong(i18n.t('validation.field.name'), NAME_MAX);
    problems.push({ title: nameTitle, message, fields: { name: message } });
  } else if (!isValidCoParentName(name)) {
    const message = i18n.t('coParents.check.invalidName');
    problems.push({ title: nameTitle, message, fields: { name: message } });
  }
  const emailTitle = i18n.t('validation.emailInvalidTitle');
  if ([...email].length > EMAIL_MAX) {
    const message = tooLong(i18n.t('validation.field.email'), EMAIL_MAX);
    problems.push({ title: emailTitle, message, fields: { email: message } });
  } else if (!isValidEmail(email)) {
    const message = i18n.t('validation.emailInvalid');
    problems.push({ title: emailTitle, message, fields: { email: message } });
  }
  const [first] = problems;
  if (!first) return null;
  // The toast names the first problem; every field with one is marked.
  return { ...first, fields: Object.assign({}, ...problems.map((p) => p.fields)) };
}

// The co-parent's own screens (the link, the PIN, the dashboard).

export const PIN_LENGTH = rules.pinLength;
/** The entry screen allows this many wrong PINs, then blocks until it is reloaded (spec). */
export const PIN_ATTEMPTS = rules.pinAttempts;

/** The spec's PIN strength rules (section 5), in its words; null when the PIN is fine. */
export function pinWeakness(pin: string): string | null {
  if (pin.length < PIN_LENGTH) return i18n.t('coParents.pin.tooShort', { length: PIN_LENGTH });
  if (!/^[0-9]+$/.test(pin)) return i18n.t('coParents.pin.digitsOnly');
  if (pin.length > PIN_LENGTH) return i18n.t('coParents.pin.exactly', { length: PIN_LENGTH });
  if (/^(.)\1*$/.test(pin)) return i18n.t('coParents.pin.sameDigit');
  if (['012345', '123456', '654321', '098765'].some((p) => pin.startsWith(p))) {
    return i18n.t('coParents.pin.sequential');
  }
  return null;
}

/** The digits of a pasted or typed text, at most `PIN_LENGTH`. */
export function pinDigits(text: string): string {
  return text.replace(/[^0-9]/g, '').slice(0, PIN_LENGTH);
}

/** 'Invalid PIN. Please try again. (Attempt N of 3)' */
export function wrongPinMessage(attempt: number): string {
  return i18n.t('coParents.pin.wrong', { attempt, max: PIN_ATTEMPTS });
}

const MEAL_EMOJI: Record<string, string> = {
  Breakfast: '🥣',
  'Morning Snack': '🍎',
  Lunch: '🥪',
  'Afternoon Snack': '🍪',
  Dinner: '🍝',
  'Evening Snack': '🥛',
};

export function mealTypeEmoji(mealType: string): string {
  return MEAL_EMOJI[mealType] ?? '🍽️';
}

/** The local calendar day of an instant, as YYYY-MM-DD (days group by it). */
export function localDay(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** 'Monday 23 November 2026' for a YYYY-MM-DD day. */
export function fullDate(day: string): string {
  return formatDay(day, 'full');
}

/** '18:05' */
export function timeOf(iso: string): string {
  return formatDate(iso, 'time');
}

/** Meals (newest first) grouped by local day, in the order they come. */
export function byDay<T extends { mealDate: string }>(
  meals: readonly T[],
): { day: string; meals: T[] }[] {
  const groups: { day: string; meals: T[] }[] = [];
  for (const meal of meals) {
    const day = localDay(meal.mealDate);
    const last = groups.at(-1);
    if (last && last.day === day) last.meals.push(meal);
    else groups.push({ day, meals: [meal] });
  }
  return groups;
}
