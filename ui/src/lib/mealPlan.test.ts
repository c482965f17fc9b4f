import { describe, expect, it } from 'vitest';

import { applyChange, blankEntry, byDay, forWhom, type PlanEntry } from './mealPlan';

const entry = (over: Partial<PlanEntry>): PlanEntry => ({
  id: 'e1',
  date: '2026-11-23',
  mealType: 'Dinner',
  recipeId: 'r1',
  title: 'Pasta bake',
  servings: 4,
  childIds: [],
  ...over,
});

describe('meal plan changes', () => {
  const saved = [
    entry({}),
    entry({ id: 'e2', recipeId: null, title: 'Leftovers', date: '2026-11-24', childIds: ['c1'] }),
  ];

  it('adds an entry and keeps the others as they are', () => {
    const out = applyChange(saved, {
      kind: 'add',
      fields: { ...blankEntry('2026-11-25'), text: ' Soup ' },
    });
    expect(out).toEqual([
      {
        id: 'e1',
        date: '2026-11-23',
        mealType: 'Dinner',
        recipeId: 'r1',
        servings: 4,
        childIds: [],
      },
      {
        id: 'e2',
        date: '2026-11-24',
        mealType: 'Dinner',
        text: 'Leftovers',
        servings: 4,
        childIds: ['c1'],
      },
      {
        id: undefined,
        date: '2026-11-25',
        mealType: 'Dinner',
        text: 'Soup',
        servings: 2,
        childIds: [],
      },
    ]);
  });

  it('edits one entry by id, and removes one', () => {
    const edited = applyChange(saved, {
      kind: 'edit',
      id: 'e2',
      fields: { ...blankEntry('2026-11-24'), recipeId: 'r9', servings: 3 },
    });
    expect(edited[1]).toEqual({
      id: 'e2',
      date: '2026-11-24',
      mealType: 'Dinner',
      recipeId: 'r9',
      servings: 3,
      childIds: [],
    });
    expect(applyChange(saved, { kind: 'remove', id: 'e1' }).map((e) => e.id)).toEqual(['e2']);
    // Gone meanwhile: nothing to change.
    expect(applyChange(saved, { kind: 'remove', id: 'zz' })).toHaveLength(2);
  });

  it('groups by day in meal order', () => {
    const days = ['2026-11-23', '2026-11-24'];
    const groups = byDay(days, [
      entry({ id: 'a', mealType: 'Dinner' }),
      entry({ id: 'b', mealType: 'Breakfast' }),
      entry({ id: 'c', date: '2026-11-24', mealType: 'Lunch' }),
    ]);
    expect(groups.map((g) => g.entries.map((e) => e.id))).toEqual([['b', 'a'], ['c']]);
  });

  it('says who an entry is for', () => {
    const names = new Map([
      ['c1', 'Emma'],
      ['c2', 'Noah'],
      ['c3', 'Mia'],
    ]);
    expect(forWhom([], names)).toBe('Whole family');
    expect(forWhom(['c1'], names)).toBe('Emma');
    expect(forWhom(['c1', 'c2', 'c3'], names)).toBe('Emma, Noah and Mia');
    expect(forWhom(['gone'], names)).toBe('Whole family');
  });
});
