/** Helpers for the recipe screens: money, the form's comma lists, typed ingredient lines. */

import i18n from 'i18next';

import { dateLocale } from './dates';

export const SERVINGS = [1, 2, 3, 4, 5, 6, 8, 10] as const;
export const COUNTS = [1, 2, 3, 4, 5] as const;

/** The difficulty values the API takes; their labels come from the catalogue (`difficultyLabel`). */
export const DIFFICULTIES = [{ value: 'easy' }, { value: 'moderate' }, { value: 'hard' }] as const;

export type Difficulty = (typeof DIFFICULTIES)[number]['value'];

/** A difficulty in the chosen language ("Quick & Simple"); an unknown value shows as it is. */
export function difficultyLabel(value: string): string {
  return DIFFICULTIES.some((d) => d.value === value)
    ? i18n.t(`recipes.difficulty.${value}`)
    : value;
}

/** The dietary badges the server checks, by their catalogue keys. */
const DIETS: Record<string, string> = {
  vegetarian: 'vegetarian',
  vegan: 'vegan',
  'gluten-free': 'glutenFree',
  'dairy-free': 'dairyFree',
  'nut-free': 'nutFree',
};

/** A recipe's dietary badge in the chosen language ("Vegetarian"); one a model or a parent
 * worded otherwise shows as it is. */
export function dietLabel(value: string): string {
  const key = DIETS[value.trim().toLowerCase()];
  return key ? i18n.t(`recipes.diets.${key}`) : value;
}

/** One formatter per locale and currency, made once (a list formats every item's price). */
const moneyFormats = new Map<string, Intl.NumberFormat>();
function moneyFormat(currency: string): Intl.NumberFormat {
  const locale = dateLocale();
  let format = moneyFormats.get(`${locale}|${currency}`);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    moneyFormats.set(`${locale}|${currency}`, format);
  }
  return format;
}

/** An amount in a currency, 2 decimals: "£3.50". */
export function formatMoney(amount: number, currency: string): string {
  try {
    return moneyFormat(currency).format(amount);
  } catch {
    return `${amount.toFixed(2)} ${currency}`;
  }
}

/** An unknown amount in a currency: "£?" (spec section 9). */
export function unknownMoney(currency: string): string {
  try {
    const parts = moneyFormat(currency).formatToParts(0);
    return `${parts.find((p) => p.type === 'currency')?.value ?? currency}?`;
  } catch {
    return `${currency}?`;
  }
}

/** The form's comma-separated free text, split and trimmed (spec section 5). */
export function splitList(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(',')) {
    const item = part.trim();
    if (item && !out.some((o) => o.toLowerCase() === item.toLowerCase())) out.push(item);
  }
  return out;
}

const AMOUNT = String.raw`(?:\d+(?:[.,]\d+)?(?:\s*[½¼¾⅓⅔])?|\d+\s*/\s*\d+|[½¼¾⅓⅔]|a|an|one|two|three|half)`;
const UNIT = String.raw`(?:kg|g|grams?|ml|l|litres?|liters?|tsp|teaspoons?|tbsp|tablespoons?|cups?|pinch(?:es)?|handfuls?|cloves?|slices?|tins?|cans?|pieces?|x)\b`;
const LEADING = new RegExp(`^(${AMOUNT}(?:\\s*${UNIT})?)\\s+(?:of\\s+)?(.+)$`, 'i');

/**
 * One typed ingredient line split into quantity and name: "200 g rice" -> {quantity: "200 g",
 * name: "rice"}; "salt" -> {quantity: "", name: "salt"}.
 */
export function parseIngredientLine(line: string): { name: string; quantity: string } {
  const text = line.trim().replace(/\s+/g, ' ');
  const m = LEADING.exec(text);
  if (m?.[1] && m[2]) return { quantity: m[1].trim(), name: m[2].trim() };
  return { quantity: '', name: text };
}

/** Non-empty lines of a text area. */
export function lines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}
