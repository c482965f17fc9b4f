/** Meal vocabulary and labels (spec section 9). */

import i18n from 'i18next';

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

/** Each meal type's catalogue key (the API's values stay English). */
const MEAL_TYPE_KEYS: Record<MealType, string> = {
  Breakfast: 'meals.type.breakfast',
  'Morning Snack': 'meals.type.morningSnack',
  Lunch: 'meals.type.lunch',
  'Afternoon Snack': 'meals.type.afternoonSnack',
  Dinner: 'meals.type.dinner',
  'Evening Snack': 'meals.type.eveningSnack',
};

/** A meal type in the chosen language; an unknown one as it is. */
export function mealTypeLabel(type: string): string {
  const key = (MEAL_TYPE_KEYS as Record<string, string | undefined>)[type];
  return key ? i18n.t(key) : type;
}

// Each list holds the API's values and their catalogue keys, read when shown (labelOf).
export const PORTIONS = [
  { value: 'none', key: 'meals.portion.none' },
  { value: 'half', key: 'meals.portion.half' },
  { value: 'full', key: 'meals.portion.full' },
  { value: 'seconds', key: 'meals.portion.seconds' },
] as const;

export const MOODS = [
  { value: 'happy', key: 'meals.mood.happy', emoji: '😋' },
  { value: 'neutral', key: 'meals.mood.neutral', emoji: '😐' },
  { value: 'sad', key: 'meals.mood.sad', emoji: '😞' },
] as const;

export const FEEDBACK = [
  { value: 'loved', key: 'meals.feedback.loved' },
  { value: 'disliked', key: 'meals.feedback.disliked' },
  { value: 'seconds', key: 'meals.feedback.seconds' },
] as const;

const labelOf = (
  list: readonly { value: string; key: string }[],
  value: string | null | undefined,
) => {
  const found = list.find((x) => x.value === value);
  return found ? i18n.t(found.key) : (value ?? '');
};

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
  return i18n.t('children.age.yearsOld', { count: age });
}

/** Babies (a birth month, under two) by months: '9 months'; otherwise null. */
export function monthsAge(monthsOld: number | null | undefined): string | null {
  if (monthsOld == null || monthsOld >= 24) return null;
  return i18n.t('children.age.months', { count: monthsOld });
}

/** The same as `monthsAge` said as an age: '9 months old'; otherwise null. */
export function monthsOldLabel(monthsOld: number | null | undefined): string | null {
  if (monthsOld == null || monthsOld >= 24) return null;
  return i18n.t('children.age.monthsOld', { count: monthsOld });
}

/** The age badge on a child card: 'N years'. */
export function ageBadge(age: number): string {
  return i18n.t('children.age.years', { count: age });
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
  if (days === 0) return i18n.t('meals.today');
  if (days === 1) return i18n.t('meals.yesterday');
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
  { value: 'none', key: 'meals.reaction.none' },
  { value: 'mild', key: 'meals.reaction.mild' },
  { value: 'severe', key: 'meals.reaction.severe' },
] as const;

export const reactionLabel = (value: string) => labelOf(REACTIONS, value);

/** 'This also deletes 3 meals and 1 photo.' for the confirmation. */
export function goesWith(meals: number, photos: number): string {
  if (meals === 0) return i18n.t('children.remove.noMeals');
  const m = i18n.t('children.remove.mealCount', { count: meals });
  if (photos === 0) return i18n.t('children.remove.deletesMeals', { meals: m });
  const p = i18n.t('children.remove.photoCount', { count: photos });
  return i18n.t('children.remove.deletesMealsAndPhotos', { meals: m, photos: p });
}

/** A tag list with the text still in its box added (what Save stores). */
export function withPending(list: string[], pending: string): string[] {
  return addTag(list, pending);
}
