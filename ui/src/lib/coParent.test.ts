import { describe, expect, it } from 'vitest';

import {
  byDay,
  fullDate,
  mealTypeEmoji,
  pinDigits,
  pinWeakness,
  wrongPinMessage,
} from './coParent';

describe('co-parent helpers', () => {
  it('checks a PIN with the spec texts', () => {
    expect(pinWeakness('12345')).toBe('PIN must be at least 6 digits');
    expect(pinWeakness('12a456')).toBe('PIN must contain only numbers');
    expect(pinWeakness('1234567')).toBe('PIN must be exactly 6 digits');
    expect(pinWeakness('777777')).toBe('PIN cannot be all the same digit');
    expect(pinWeakness('123456')).toBe('PIN cannot be a sequential pattern');
    expect(pinWeakness('098765')).toBe('PIN cannot be a sequential pattern');
    expect(pinWeakness('482913')).toBeNull();
  });

  it('keeps the digits of a paste, six at most', () => {
    expect(pinDigits(' 48 29-13 ')).toBe('482913');
    expect(pinDigits('4829135555')).toBe('482913');
    expect(pinDigits('ab')).toBe('');
  });

  it('counts attempts in the spec words', () => {
    expect(wrongPinMessage(2)).toBe('Invalid PIN. Please try again. (Attempt 2 of 3)');
  });

  it('groups meals by local day in order, under a full date', () => {
    const at = (d: number, h: number) => new Date(2026, 10, d, h).toISOString();
    const groups = byDay([
      { id: 'a', mealDate: at(23, 18) },
      { id: 'b', mealDate: at(23, 8) },
      { id: 'c', mealDate: at(22, 12) },
    ]);
    expect(groups.map((g) => [g.day, g.meals.map((m) => m.id)])).toEqual([
      ['2026-11-23', ['a', 'b']],
      ['2026-11-22', ['c']],
    ]);
    expect(fullDate('2026-11-23')).toBe('Monday, November 23, 2026');
  });

  it('has an emoji for every meal type', () => {
    expect(mealTypeEmoji('Lunch')).toBe('🥪');
    expect(mealTypeEmoji('Something else')).toBe('🍽️');
  });
});
