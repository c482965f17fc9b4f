/** Rules of the grocery screens: categories, the list form's items, checks, counts and totals. */

import type { Problem } from './validation';
import { NAME_MAX, tooLong } from './validation';

/** The spec's 15 categories, in shop order (the server accepts exactly these). */
export const CATEGORIES = [
  'Produce',
  'Dairy',
  'Meat & Seafood',
  'Bakery',
  'Frozen',
  'Canned Goods',
  'Dry Goods & Pasta',
  'Snacks',
  'Beverages',
  'Condiments & Spices',
  'Cleaning',
  'Personal Care',
  'Baby',
  'Pet',
  'Other',
] as const;

export const DEFAULT_CATEGORY = 'Other';

/** The server's limit on items per list. */
export const ITEMS_MAX = 500;

/** An item in the list form: `id` once the server has it; `key` for React either way. */
export interface FormItem {
  key: string;
  id?: string;
  name: string;
  quantity: string;
  category: string;
  checked: boolean;
  /** The catalogue's price for a saved item, when it knows the food. */
  knownPrice?: number | null;
}

let counter = 0;
/** A key for an item typed in this tab. */
export function localKey(): string {
  counter += 1;
  return `new-${counter}`;
}

/** Items as the form keeps them, from a saved list or a draft. */
export function formItems(
  items: readonly {
    id?: string;
    name: string;
    quantity: string;
    category: string;
    checked: boolean;
    knownPrice?: number | null;
  }[],
): FormItem[] {
  return items.map((i) => ({
    key: i.id ?? localKey(),
    id: i.id,
    name: i.name,
    quantity: i.quantity,
    category: i.category,
    checked: i.checked,
    knownPrice: i.knownPrice ?? null,
  }));
}

/** A typed item, or the spec's toast when its name is empty. */
export function newItem(name: string, quantity: string, category: string): FormItem | Problem {
  const trimmed = name.trim();
  if (!trimmed) {
    return { title: 'Item name required', message: 'Please enter an item name', field: 'item' };
  }
  return {
    key: localKey(),
    name: trimmed,
    quantity: quantity.trim() || '1',
    category: (CATEGORIES as readonly string[]).includes(category) ? category : DEFAULT_CATEGORY,
    checked: false,
  };
}

/** The checks before saving, with the server's texts: a problem to toast, or null. */
export function checkList(name: string, items: readonly FormItem[]): Problem | null {
  const title = 'Error saving grocery list';
  if (!name.trim()) return { title, message: 'List name is required.', field: 'name' };
  if ([...name.trim()].length > NAME_MAX)
    return { title, message: tooLong(NAME_MAX), field: 'name' };
  if (items.length === 0) {
    return {
      title: 'No items in list',
      message: 'Please add at least one item to your grocery list',
      field: 'item',
    };
  }
  if (items.length > ITEMS_MAX) {
    return { title, message: `Please keep a list to ${ITEMS_MAX} items or fewer`, field: 'item' };
  }
  return null;
}

/** Items grouped by category in shop order; categories without items are left out. */
export function byCategory<T extends { category: string }>(
  items: readonly T[],
): { category: string; items: T[] }[] {
  const order = (c: string) => {
    const i = (CATEGORIES as readonly string[]).indexOf(c);
    return i < 0 ? CATEGORIES.length : i;
  };
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const group = groups.get(item.category);
    if (group) group.push(item);
    else groups.set(item.category, [item]);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => order(a) - order(b))
    .map(([category, list]) => ({ category, items: list }));
}

/** 'X of Y items checked'. */
export function checkedSummary(items: readonly { checked: boolean }[]): string {
  const done = items.filter((i) => i.checked).length;
  return `${done} of ${items.length} items checked`;
}

export function itemCount(n: number): string {
  return n === 1 ? '1 item' : `${n} items`;
}

/**
 * The form's estimated total: the catalogue's price where the server knows one, the per-item
 * estimate otherwise (items typed since opening are priced when saved). 2 decimals.
 */
export function estimate(
  items: readonly { knownPrice?: number | null }[],
  perItem: number,
): { total: number; priced: number } {
  let cents = 0;
  let priced = 0;
  for (const item of items) {
    const price = item.knownPrice;
    if (typeof price === 'number') priced += 1;
    cents += Math.round((typeof price === 'number' ? price : perItem) * 100);
  }
  return { total: cents / 100, priced };
}

/**
 * After a save was refused because the list changed elsewhere: the typed values stay, but a
 * tick the parent did not change in the form follows the saved list (someone in the shop
 * ticked it), so saving again keeps their ticks.
 */
export function adoptTicks(
  typed: readonly FormItem[],
  opened: ReadonlyMap<string, boolean>,
  current: readonly { id: string; checked: boolean }[],
): FormItem[] {
  const now = new Map(current.map((i) => [i.id, i.checked]));
  return typed.map((item) => {
    if (!item.id) return item;
    const before = opened.get(item.id);
    const saved = now.get(item.id);
    if (before === undefined || saved === undefined || before !== item.checked) return item;
    return { ...item, checked: saved };
  });
}
