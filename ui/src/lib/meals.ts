/** Meal vocabulary and labels (spec section 9). */

import { formatDate } from './dates';

export const MEAL_TYPES = [
  'Breakfast',
  'Morning Snack',
  'Lunch',
  'Afternoon Snack',
  'Dinner',
  'Evening Snack',
] as const;
export type MealType = (typeof MEAL_TYPES)[number];

export const PORTIONS = [
  { value: 'none', label: 'None' },
  { value: 'half', label: 'Half portion' },
  { value: 'full', label: 'Full portion' },
  { value: 'seconds', label: 'Had seconds' },
] as const;

export const MOODS = [
  { value: 'happy', label: 'Loved it', emoji: '😋' },
  { value: 'neutral', label: 'Neutral', emoji: '😐' },
  { value: 'sad', label: 'Disliked', emoji: '😞' },
] as const;

export const FEEDBACK = [
  { value: 'loved', label: 'Loved it' },
  { value: 'disliked', label: "Didn't like it" },
  { value: 'seconds', label: 'Had seconds' },
] as const;

const labelOf = (
  list: readonly { value: string; label: string }[],
  value: string | null | undefined,
) => list.find((x) => x.value === value)?.label ?? value ?? '';

export const portionLabel = (value: string) => labelOf(PORTIONS, value);
export const feedbackLabel = (value: string | null | undefined) =>
  value ? labelOf(FEEDBACK, value) : '';
export const moodEmoji = (value: string) => MOODS.find((m) => m.value === value)?.emoji ?? '🙂';
export const moodLabel = (value: string) => labelOf(MOODS, value);

/**
 * How a food went over all its meals (the food history's liking) in the meal cards' words:
 * one label and one emoji per mood, wherever a mood is shown.
 */
export function likingMood(liking: 'liked' | 'mixed' | 'disliked'): string {
  return { liked: 'happy', mixed: 'neutral', disliked: 'sad' }[liking];
}

/** 'N years old' (and '1 year old'). */
export function ageLabel(age: number): string {
  return `${age} ${age === 1 ? 'year' : 'years'} old`;
}

/** Babies (a birth month, under two) by months: '9 months'; otherwise null. */
export function monthsAge(monthsOld: number | null | undefined): string | null {
  if (monthsOld == null || monthsOld >= 24) return null;
  return `${monthsOld} ${monthsOld === 1 ? 'month' : 'months'}`;
}

/** The age badge on a child card: 'N years'. */
export function ageBadge(age: number): string {
  return `${age} ${age === 1 ? 'year' : 'years'}`;
}

/** Today's date as the meal tracker shows it: "Sunday 22 November 2026". */
export function formatToday(now = new Date()): string {
  return formatDate(now, 'full');
}

/** A meal's short date: "22 Nov, 18:30". */
export function formatShortDate(iso: string): string {
  return formatDate(iso, 'dayMonthTime');
}

/**
 * Adds `entry` to a tag list the way the forms do: trimmed, only when non-empty and not already
 * there (ignoring case). Returns the same list when nothing was added.
 */
export function addTag(list: string[], entry: string): string[] {
  const tag = entry.trim().replace(/\s+/g, ' ');
  if (!tag || list.some((t) => t.toLowerCase() === tag.toLowerCase())) return list;
  return [...list, tag];
}

/** Removes the chip at `index` (chips are removable by position). */
export function removeTag(list: string[], index: number): string[] {
  return list.filter((_, i) => i !== index);
}

/** A `datetime-local` value (the browser's time zone) for an ISO time. */
export function toLocalInput(iso: string | Date): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The ISO time of a `datetime-local` value; undefined when empty or not a time. */
export function fromLocalInput(value: string): string | undefined {
  if (!value) return undefined;
  const d = new Date(value);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** "Today", "Yesterday" or "Mon 21 Nov 2026": the heading of a day of meals. */
export function dayHeading(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  const start = (x: Date) => new Date(x.getFullYear(), x.getMonth(), x.getDate()).getTime();
  const days = Math.round((start(now) - start(d)) / 86_400_000);
  if (days === 0) return 'Today';
  if (days === 1) return 'Yesterday';
  return formatDate(d, 'dayHeading');
}

/** Meals (newest first) in runs of the same local day, in order. */
export function groupByDay<T extends { mealDate: string }>(meals: T[], now: Date = new Date()) {
  const groups: { day: string; meals: T[] }[] = [];
  for (const meal of meals) {
    const day = dayHeading(meal.mealDate, now);
    const last = groups[groups.length - 1];
    if (last && last.day === day) last.meals.push(meal);
    else groups.push({ day, meals: [meal] });
  }
  return groups;
}

export const REACTIONS = [
  { value: 'none', label: 'No reaction' },
  { value: 'mild', label: 'Mild reaction' },
  { value: 'severe', label: 'Severe reaction' },
] as const;

/** 'This also deletes 3 meals and 1 photo.' for the confirmation. */
export function goesWith(meals: number, photos: number): string {
  if (meals === 0) return 'No meals are recorded for this child.';
  const m = `${meals} ${meals === 1 ? 'meal' : 'meals'}`;
  const p = photos === 0 ? '' : ` and ${photos} ${photos === 1 ? 'photo' : 'photos'}`;
  return `This also deletes ${m}${p}.`;
}

/** A tag list with the text still in its box added (what Save stores). */
export function withPending(list: string[], pending: string): string[] {
  return addTag(list, pending);
}
