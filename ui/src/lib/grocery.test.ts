import { describe, expect, it } from 'vitest';

import {
  CATEGORIES,
  adoptTicks,
  byCategory,
  checkList,
  checkedSummary,
  estimate,
  formItems,
  itemCount,
  newItem,
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

  it('after a conflict takes the other device ticks only where the form did not change them', () => {
    const opened = new Map([
      ['a', false],
      ['b', false],
      ['c', true],
    ]);
    const typed = [
      item({ id: 'a', checked: false, name: 'Typed name' }),
      item({ id: 'b', checked: true }),
      item({ id: 'c', checked: true }),
      item({ key: 'new', checked: false }),
    ];
    const now = [
      { id: 'a', checked: true },
      { id: 'b', checked: false },
      { id: 'c', checked: false },
    ];
    const merged = adoptTicks(typed, opened, now);
    expect(merged.map((i) => i.checked)).toEqual([true, true, false, false]);
    expect(merged[0]?.name).toBe('Typed name');
  });
});
