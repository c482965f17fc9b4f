/** Rules of the meal plan screen: one change at a time, applied to whichever week is newest. */

import i18n from 'i18next';

import { LANGUAGES, currentLanguage } from '../i18n';
import { MEAL_TYPES } from './meals';

export interface PlanEntry {
  id: string;
  date: string;
  mealType: string;
  recipeId?: string | null;
  title: string;
  servings: number;
  childIds: string[];
}

/** What the entry form makes: a recipe or free text, for a day and a meal. */
export interface EntryFields {
  date: string;
  mealType: string;
  recipeId: string | null;
  text: string;
  servings: number;
  childIds: string[];
}

/** One change a parent makes; re-applied to the newer week when a save meets a 409. */
export type PlanChange =
  | { kind: 'add'; fields: EntryFields }
  | { kind: 'edit'; id: string; fields: EntryFields }
  | { kind: 'remove'; id: string };

/** An entry as a save sends it. */
export interface EntryInput {
  id?: string;
  date: string;
  mealType: string;
  recipeId?: string;
  text?: string;
  servings?: number;
  childIds: string[];
}

/** An entry as a save (or the check before it) sends it. */
export function entryInput(fields: EntryFields, id?: string): EntryInput {
  return {
    id,
    date: fields.date,
    mealType: fields.mealType,
    ...(fields.recipeId ? { recipeId: fields.recipeId } : { text: fields.text.trim() }),
    servings: fields.servings,
    childIds: fields.childIds,
  };
}

/** A saved entry sent back unchanged (a recipe deleted since keeps its place and title). */
function keep(entry: PlanEntry): EntryInput {
  return {
    id: entry.id,
    date: entry.date,
    mealType: entry.mealType,
    ...(entry.recipeId ? { recipeId: entry.recipeId } : { text: entry.title }),
    servings: entry.servings,
    childIds: entry.childIds,
  };
}

/**
 * The week's entries to save: the saved ones with `change` applied. An edit or removal of an
 * entry someone else removed meanwhile changes nothing (it is gone either way).
 */
export function applyChange(entries: readonly PlanEntry[], change: PlanChange): EntryInput[] {
  switch (change.kind) {
    case 'add':
      return [...entries.map(keep), entryInput(change.fields)];
    case 'edit':
      return entries.map((e) => (e.id === change.id ? entryInput(change.fields, e.id) : keep(e)));
    case 'remove':
      return entries.filter((e) => e.id !== change.id).map(keep);
  }
}

/** The week's entries by day, each day's in meal order. */
export function byDay<E extends { date: string; mealType: string }>(
  days: readonly string[],
  entries: readonly E[],
): { day: string; entries: E[] }[] {
  const order = (t: string) => (MEAL_TYPES as readonly string[]).indexOf(t);
  return days.map((day) => ({
    day,
    entries: entries
      .filter((e) => e.date === day)
      .sort((a, b) => order(a.mealType) - order(b.mealType)),
  }));
}

/** Who an entry is for: "Emma and Noah", or "Whole family". */
export function forWhom(childIds: readonly string[], names: ReadonlyMap<string, string>): string {
  const known = childIds.map((id) => names.get(id)).filter((n): n is string => Boolean(n));
  if (known.length === 0) return i18n.t('plan.wholeFamily');
  if (known.length === 1) return known[0] ?? '';
  // The language's own list ("Emma, Noah and Mia", "Emma, Noah et Mia"; Spanish "y" before
  // "Isabel" becomes "e"), in the language's usual locale: English stays British.
  return new Intl.ListFormat(LANGUAGES[currentLanguage()].locale, {
    style: 'long',
    type: 'conjunction',
  }).format(known);
}

/** A new entry's fields for a day: dinner, the whole family, 2 servings. */
export function blankEntry(date: string): EntryFields {
  return { date, mealType: 'Dinner', recipeId: null, text: '', servings: 2, childIds: [] };
}

export function entryFields(entry: PlanEntry): EntryFields {
  return {
    date: entry.date,
    mealType: entry.mealType,
    recipeId: entry.recipeId ?? null,
    // Also for a recipe: if it was deleted since, the form offers its title as text.
    text: entry.title,
    servings: entry.servings,
    childIds: entry.childIds,
  };
}
