import { describe, expect, it } from 'vitest';

import type { FamilyChange } from './useFamilyEvents';
import { shareStaleAfter } from './useShare';

const change = (kind: FamilyChange['kind']): FamilyChange => ({ kind, id: 'x', revision: 1 });

describe("the co-parent's data each change makes stale", () => {
  it('keeps the allergen pages current: meals, children and the family list', () => {
    expect(shareStaleAfter(change('meal'))).toEqual(['meals', 'allergens']);
    expect(shareStaleAfter(change('child'))).toEqual([
      'children',
      'meals',
      'mealPlan',
      'allergens',
    ]);
    expect(shareStaleAfter(change('family_settings'))).toEqual(['allergens']);
    expect(shareStaleAfter(change('grocery_list'))).toEqual(['groceryLists']);
    // What a co-parent never sees changes nothing of theirs.
    expect(shareStaleAfter(change('co_parent'))).toEqual([]);
    expect(shareStaleAfter(change('profile'))).toEqual([]);
  });
});
