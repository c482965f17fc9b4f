/** Rules of the grocery screens: categories, the list form's items, checks, counts and totals. */

import i18n from 'i18next';

import { rules } from '../api/rules';
import type { Problem } from './validation';
import { NAME_MAX } from './validation';

/** The spec's 15 categories, in shop order (the server accepts exactly these, and says so). */
export const CATEGORIES: readonly string[] = rules.groceryCategories;

export const DEFAULT_CATEGORY = rules.defaultGroceryCategory;

/** The catalogue key of each category's name on screen (the stored value stays English). */
const CATEGORY_KEYS: Readonly<Record<string, string>> = {
  Produce: 'produce',
  Dairy: 'dairy',
  'Meat & Seafood': 'meatSeafood',
  Bakery: 'bakery',
  Frozen: 'frozen',
  'Canned Goods': 'cannedGoods',
  'Dry Goods & Pasta': 'dryGoodsPasta',
  Snacks: 'snacks',
  Beverages: 'beverages',
  'Condiments & Spices': 'condimentsSpices',
  Cleaning: 'cleaning',
  'Personal Care': 'personalCare',
  Baby: 'baby',
  Pet: 'pet',
  Other: 'other',
};

/** A category in the chosen language; one the UI does not know shows as it is. */
export function categoryLabel(category: string): string {
  const key = Object.hasOwn(CATEGORY_KEYS, category) ? CATEGORY_KEYS[category] : undefined;
  return key ? i18n.t(`grocery.category.${key}`) : category;
}

/** The server's limit on items per list. */
export const ITEMS_MAX = rules.groceryItemsMax;

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
    return {
      title: i18n.t('grocery.check.itemNameRequiredTitle'),
      message: i18n.t('grocery.check.itemNameRequired'),
      field: 'item',
    };
  }
  return {
    key: localKey(),
    name: trimmed,
    quantity: quantity.trim() || '1',
    category: CATEGORIES.includes(category) ? category : DEFAULT_CATEGORY,
    checked: false,
  };
}

/** The checks before saving, with the server's texts: a problem to toast, or null. */
export function checkList(name: string, items: readonly FormItem[]): Problem | null {
  const title = i18n.t('grocery.error.save');
  if (!name.trim()) {
    return { title, message: i18n.t('grocery.check.nameRequired'), field: 'name' };
  }
  if ([...name.trim()].length > NAME_MAX) {
    return {
      title,
      message: i18n.t('grocery.check.nameTooLong', { max: NAME_MAX }),
      field: 'name',
    };
  }
  if (items.length === 0) {
    return {
      title: i18n.t('grocery.check.noItemsTitle'),
      message: i18n.t('grocery.check.noItems'),
      field: 'item',
    };
  }
  if (items.length > ITEMS_MAX) {
    return {
      title,
      message: i18n.t('grocery.check.tooManyItems', { max: ITEMS_MAX }),
      field: 'item',
    };
  }
  return null;
}

/** Items grouped by category in shop order; categories without items are left out. */
export function byCategory<T extends { category: string }>(
  items: readonly T[],
): { category: string; items: T[] }[] {
  const order = (c: string) => {
    const i = CATEGORIES.indexOf(c);
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
  return i18n.t('grocery.checkedSummary', { done, count: items.length });
}

export function itemCount(n: number): string {
  return i18n.t('grocery.itemCount', { count: n });
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

/** An item's fields as saved, by id: what the form started from. */
export type Snapshot = ReadonlyMap<
  string,
  { name: string; quantity: string; category: string; checked: boolean }
>;

export function snapshotOf(
  items: readonly {
    id?: string;
    name: string;
    quantity: string;
    category: string;
    checked: boolean;
  }[],
): Snapshot {
  return new Map(
    items.flatMap((i) =>
      i.id
        ? [
            [
              i.id,
              { name: i.name, quantity: i.quantity, category: i.category, checked: i.checked },
            ] as const,
          ]
        : [],
    ),
  );
}

const FIELDS = ['name', 'quantity', 'category', 'checked'] as const;

/**
 * After a save was refused because the list changed elsewhere: a three-way merge of what the
 * form started from (`opened`), what the parent made of it (`typed`) and the list as saved now
 * (`current`). What the parent changed stays; what they did not touch follows the saved list
 * (someone in the shop ticked it, or renamed it); items added elsewhere are added; items
 * removed elsewhere go, unless the parent changed them; items the parent removed stay removed.
 */
export function mergeAfterConflict(
  typed: readonly FormItem[],
  opened: Snapshot,
  current: readonly {
    id: string;
    name: string;
    quantity: string;
    category: string;
    checked: boolean;
    knownPrice?: number | null;
  }[],
): FormItem[] {
  const now = new Map(current.map((i) => [i.id, i]));
  const merged: FormItem[] = [];
  for (const item of typed) {
    const before = item.id ? opened.get(item.id) : undefined;
    if (!item.id || !before) {
      merged.push(item);
      continue;
    }
    const saved = now.get(item.id);
    const touched = FIELDS.some((f) => item[f] !== before[f]);
    if (!saved) {
      // Removed elsewhere: gone, unless the parent changed it (then it comes back as new).
      if (touched) merged.push({ ...item, id: undefined });
      continue;
    }
    // A field the parent left as it was takes the saved value.
    merged.push({
      ...item,
      name: item.name === before.name ? saved.name : item.name,
      quantity: item.quantity === before.quantity ? saved.quantity : item.quantity,
      category: item.category === before.category ? saved.category : item.category,
      checked: item.checked === before.checked ? saved.checked : item.checked,
      knownPrice: saved.knownPrice ?? null,
    });
  }
  const inForm = new Set(typed.flatMap((i) => (i.id ? [i.id] : [])));
  for (const saved of current) {
    // Added elsewhere (the parent never saw it, so cannot have removed it).
    if (!opened.has(saved.id) && !inForm.has(saved.id)) merged.push(...formItems([saved]));
  }
  return merged;
}
