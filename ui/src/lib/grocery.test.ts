import { describe, expect, it } from 'vitest';

import {
  CATEGORIES,
  byCategory,
  checkList,
  checkedSummary,
  estimate,
  formItems,
  itemCount,
  mergeAfterConflict,
  newItem,
  snapshotOf,
  type FormItem,
} from './grocery';

const item = (over: Partial<FormItem>): FormItem => ({
  key: over.id ?? 'k',
  name: 'Milk',
  quantity: '1',
  category: 'Dairy',
  checked: false,
  ...over,
});

describe('grocery rules', () => {
  it('has the spec categories, Other last', () => {
    expect(CATEGORIES).toHaveLength(15);
    expect(CATEGORIES[CATEGORIES.length - 1]).toBe('Other');
  });

  it('makes a typed item: trimmed, quantity 1 when empty, a known category', () => {
    expect(newItem('  Bread ', '', 'Bakery')).toMatchObject({
      name: 'Bread',
      quantity: '1',
      category: 'Bakery',
      checked: false,
    });
    expect(newItem('Soap', ' 2 ', 'Nonsense')).toMatchObject({ quantity: '2', category: 'Other' });
    expect(newItem('   ', '1', 'Dairy')).toEqual({
      title: 'Item name required',
      message: 'Please enter an item name',
      field: 'item',
    });
  });

  it('checks a list before saving with the spec texts', () => {
    expect(checkList(' ', [item({})])).toMatchObject({ message: 'List name is required.' });
    expect(checkList('Weekly', [])).toEqual({
      title: 'No items in list',
      message: 'Please add at least one item to your grocery list',
      field: 'item',
    });
    expect(checkList('Weekly', [item({})])).toBeNull();
  });

  it('groups by category in shop order', () => {
    const groups = byCategory([
      { category: 'Other', n: 1 },
      { category: 'Produce', n: 2 },
      { category: 'Dairy', n: 3 },
      { category: 'Produce', n: 4 },
    ]);
    expect(groups.map((g) => g.category)).toEqual(['Produce', 'Dairy', 'Other']);
    expect(groups[0]?.items.map((i) => i.n)).toEqual([2, 4]);
  });

  it('counts and totals', () => {
    expect(checkedSummary([{ checked: true }, { checked: false }, { checked: true }])).toBe(
      '2 of 3 items checked',
    );
    expect(itemCount(1)).toBe('1 item');
    expect(itemCount(4)).toBe('4 items');
    expect(estimate([{ knownPrice: 1.1 }, {}, { knownPrice: null }], 2.5)).toEqual({
      total: 6.1,
      priced: 1,
    });
  });

  it('keeps ids of saved items and makes keys for new ones', () => {
    const items = formItems([
      { id: 'a', name: 'Milk', quantity: '1', category: 'Dairy', checked: true },
      { name: 'Eggs', quantity: '6', category: 'Dairy', checked: false },
    ]);
    expect(items[0]).toMatchObject({ key: 'a', id: 'a', checked: true });
    expect(items[1]?.id).toBeUndefined();
    expect(items[1]?.key).not.toBe(items[0]?.key);
  });

  it("after a conflict merges three ways: the parent's changes, theirs, and both lists", () => {
    const opened = snapshotOf([
      { id: 'a', name: 'Milk', quantity: '1', category: 'Dairy', checked: false },
      { id: 'b', name: 'Bread', quantity: '1', category: 'Bakery', checked: false },
      { id: 'c', name: 'Eggs', quantity: '6', category: 'Dairy', checked: true },
      { id: 'd', name: 'Jam', quantity: '1', category: 'Other', checked: false },
      { id: 'e', name: 'Tea', quantity: '1', category: 'Beverages', checked: false },
    ]);
    const typed = [
      // Renamed here; ticked there.
      item({ id: 'a', name: 'Oat milk', checked: false }),
      // Untouched here; quantity changed there.
      item({ id: 'b', name: 'Bread', quantity: '1', category: 'Bakery' }),
      // Unticked here; the same there.
      item({ id: 'c', name: 'Eggs', quantity: '6', checked: false }),
      // Untouched here; removed there.
      item({ id: 'd', name: 'Jam', category: 'Other' }),
      // 'e' removed here.
      item({ key: 'new', name: 'Butter' }),
    ];
    const current = [
      { id: 'a', name: 'Milk', quantity: '1', category: 'Dairy', checked: true },
      { id: 'b', name: 'Bread', quantity: '2', category: 'Bakery', checked: false },
      { id: 'c', name: 'Eggs', quantity: '6', category: 'Dairy', checked: false },
      { id: 'e', name: 'Tea', quantity: '1', category: 'Beverages', checked: false },
      { id: 'f', name: 'Soap', quantity: '1', category: 'Cleaning', checked: false },
    ];
    const merged = mergeAfterConflict(typed, opened, current);
    expect(merged.map((i) => [i.id, i.name, i.quantity, i.checked])).toEqual([
      ['a', 'Oat milk', '1', true],
      ['b', 'Bread', '2', false],
      ['c', 'Eggs', '6', false],
      [undefined, 'Butter', '1', false],
      ['f', 'Soap', '1', false],
    ]);
  });

  it('keeps an item removed elsewhere when the parent changed it, as a new one', () => {
    const opened = snapshotOf([
      { id: 'a', name: 'Milk', quantity: '1', category: 'Dairy', checked: false },
    ]);
    const merged = mergeAfterConflict([item({ id: 'a', quantity: '2' })], opened, []);
    expect(merged).toHaveLength(1);
    expect(merged[0]?.id).toBeUndefined();
    expect(merged[0]?.quantity).toBe('2');
  });
});
