/** ISO 8601 weeks ("2026-W48", Monday first) for the meal plan, in the browser's local dates. */

import i18n from 'i18next';

import { formatDay } from './dates';

const DAY_MS = 86_400_000;

/** The Monday of an ISO week as a UTC date, or null when the text is not a week that exists. */
export function mondayOf(week: string): Date | null {
  const m = /^(\d{4})-W(\d{2})$/.exec(week);
  if (!m) return null;
  const year = Number(m[1]);
  const n = Number(m[2]);
  if (n < 1 || n > weeksIn(year)) return null;
  // 4 January is always in week 1.
  const jan4 = Date.UTC(year, 0, 4);
  const weekday = (new Date(jan4).getUTCDay() + 6) % 7;
  return new Date(jan4 - weekday * DAY_MS + (n - 1) * 7 * DAY_MS);
}

/** 52 or 53: a year has 53 weeks when 28 December falls in week 53. */
export function weeksIn(year: number): number {
  const dec28 = new Date(Date.UTC(year, 11, 28));
  return isoWeek(dec28).week;
}

function isoWeek(date: Date): { year: number; week: number } {
  const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const weekday = (d.getUTCDay() + 6) % 7;
  // The Thursday of this week decides the year.
  d.setUTCDate(d.getUTCDate() - weekday + 3);
  const year = d.getUTCFullYear();
  const jan1 = Date.UTC(year, 0, 1);
  return { year, week: 1 + Math.floor((d.getTime() - jan1) / (7 * DAY_MS)) };
}

/** The week a local calendar day is in: "2026-W48". */
export function weekOf(day: Date): string {
  const { year, week } = isoWeek(
    new Date(Date.UTC(day.getFullYear(), day.getMonth(), day.getDate())),
  );
  return `${year}-W${String(week).padStart(2, '0')}`;
}

/** The week `n` weeks after (or before, negative) `week`. */
export function addWeeks(week: string, n: number): string {
  const monday = mondayOf(week);
  if (!monday) return week;
  const d = new Date(monday.getTime() + n * 7 * DAY_MS);
  const { year, week: w } = isoWeek(d);
  return `${year}-W${String(w).padStart(2, '0')}`;
}

/** The seven days of a week as YYYY-MM-DD, Monday first. */
export function daysOf(week: string): string[] {
  const monday = mondayOf(week);
  if (!monday) return [];
  return Array.from({ length: 7 }, (_, i) =>
    new Date(monday.getTime() + i * DAY_MS).toISOString().slice(0, 10),
  );
}

/** "Week of 23 Nov 2026". */
export function weekLabel(week: string): string {
  const monday = mondayOf(week);
  if (!monday) return week;
  return i18n.t('plan.weekOf', { date: formatDay(monday.toISOString().slice(0, 10), 'medium') });
}

/** "Monday 23 Nov" for a YYYY-MM-DD day. */
export function dayLabel(day: string): string {
  return formatDay(day, 'weekday');
}
