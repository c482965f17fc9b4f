import { describe, expect, it } from 'vitest';

import { dietLabel, formatMoney, parseIngredientLine, splitList, unknownMoney } from './recipes';

describe('recipe helpers', () => {
  it('shows money in the configured currency, and an unknown cost as a question mark', () => {
    expect(formatMoney(3.5, 'GBP')).toBe('£3.50');
    expect(formatMoney(12, 'EUR')).toBe('€12.00');
    expect(unknownMoney('GBP')).toBe('£?');
  });

  it('words the badges the server checks from the catalogue, and others as they are', () => {
    expect(dietLabel('vegetarian')).toBe('Vegetarian');
    expect(dietLabel('Gluten-free')).toBe('Gluten-free');
    expect(dietLabel('Nut-Free')).toBe('Nut-free');
    expect(dietLabel('Halal')).toBe('Halal');
  });

  it('splits comma-separated restrictions and allergies, trimmed and without repeats', () => {
    expect(splitList(' Peanuts, milk ,, peanuts ,Sesame ')).toEqual(['Peanuts', 'milk', 'Sesame']);
    expect(splitList('')).toEqual([]);
  });

  it('reads a typed ingredient line into quantity and name', () => {
    expect(parseIngredientLine('200 g rice')).toEqual({ quantity: '200 g', name: 'rice' });
    expect(parseIngredientLine('2 tbsp of olive oil')).toEqual({
      quantity: '2 tbsp',
      name: 'olive oil',
    });
    expect(parseIngredientLine('½ onion')).toEqual({ quantity: '½', name: 'onion' });
    expect(parseIngredientLine('Salt')).toEqual({ quantity: '', name: 'Salt' });
    expect(parseIngredientLine('3 eggs')).toEqual({ quantity: '3', name: 'eggs' });
  });
});
