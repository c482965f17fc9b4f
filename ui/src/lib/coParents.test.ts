import { describe, expect, it } from 'vitest';

import {
  EXPIRING_WITHIN_MS,
  accessBadge,
  canExtend,
  checkCoParent,
  expiryBadge,
  formatExpiry,
  isExpired,
  isExpiring,
  isPin,
  isValidCoParentName,
  byDay,
  fullDate,
  mealTypeEmoji,
  pinDigits,
  pinWeakness,
  wrongPinMessage,
} from './coParents';

const DAY = 24 * 60 * 60 * 1000;
// Midday UTC, so the calendar day is the same in every time zone the tests may run in.
const EXPIRY = '2025-05-20T12:00:00Z';
const at = (iso: string) => Date.parse(iso);

describe('the expiry badge', () => {
  it('reads Expires: <day> <abbreviated month> <year> in a UK browser', () => {
    expect(formatExpiry(EXPIRY)).toBe('20 May 2025');
    expect(formatExpiry('2025-12-03T12:00:00Z')).toBe('3 Dec 2025');
    expect(expiryBadge(EXPIRY, at('2025-05-13T12:00:00Z'))).toEqual({
      label: 'Expires: 20 May 2025',
      expired: false,
    });
  });

  it('reads Expired once the expiry is not after now', () => {
    expect(expiryBadge(EXPIRY, at(EXPIRY))).toEqual({ label: 'Expired', expired: true });
    expect(expiryBadge(EXPIRY, at(EXPIRY) + 1)).toEqual({ label: 'Expired', expired: true });
    expect(expiryBadge(EXPIRY, at(EXPIRY) - 1).expired).toBe(false);
  });
});

describe('expired and expiring links', () => {
  it('is expired exactly at the expiry and after', () => {
    expect(isExpired(EXPIRY, at(EXPIRY) - 1)).toBe(false);
    expect(isExpired(EXPIRY, at(EXPIRY))).toBe(true);
  });

  it('is expiring within three days of the expiry, not before, and not once expired', () => {
    expect(EXPIRING_WITHIN_MS).toBe(3 * DAY);
    expect(isExpiring(EXPIRY, at(EXPIRY) - 7 * DAY)).toBe(false);
    expect(isExpiring(EXPIRY, at(EXPIRY) - 3 * DAY - 1)).toBe(false);
    expect(isExpiring(EXPIRY, at(EXPIRY) - 3 * DAY)).toBe(true);
    expect(isExpiring(EXPIRY, at(EXPIRY) - 1)).toBe(true);
    expect(isExpiring(EXPIRY, at(EXPIRY))).toBe(false);
  });

  it('offers Extend for an expired or expiring link only', () => {
    expect(canExtend(EXPIRY, at(EXPIRY) - 7 * DAY)).toBe(false);
    expect(canExtend(EXPIRY, at(EXPIRY) - DAY)).toBe(true);
    expect(canExtend(EXPIRY, at(EXPIRY) + 30 * DAY)).toBe(true);
  });
});

describe('the access badge', () => {
  it('is Active, Pending or Locked; an expired link shows only Expired', () => {
    expect(accessBadge('active', true)).toBe('Active');
    expect(accessBadge('pending', false)).toBe('Pending');
    expect(accessBadge('locked', true)).toBe('Locked');
    expect(accessBadge('expired', true)).toBe('Active');
    expect(accessBadge('expired', false)).toBe('Pending');
  });
});

describe('PINs', () => {
  it('are exactly six digits', () => {
    expect(isPin('482913')).toBe(true);
    expect(isPin('48291')).toBe(false);
    expect(isPin('4829133')).toBe(false);
    expect(isPin('48291a')).toBe(false);
    expect(isPin(482913)).toBe(false);
    expect(isPin(undefined)).toBe(false);
  });
});

describe('the invite form', () => {
  it('accepts names of any alphabet with spaces, hyphens and apostrophes', () => {
    for (const name of [
      'Jamie Rivera',
      'Zoë',
      'Siobhán O’Neill',
      'Anne-Marie',
      "D'Arcy",
      'Dvořák',
      'Zoe\u0308',
      '李小龙',
      ' <b>Sam</b> ',
    ]) {
      expect(isValidCoParentName(name), name).toBe(true);
    }
  });

  it('refuses digits, symbols and names without a letter', () => {
    for (const name of ['Sam2', 'R2-D2', 'Sam!', 'sam@example', "--'", '\u0308Zoe']) {
      expect(isValidCoParentName(name), name).toBe(false);
    }
  });

  it('requires both first, naming each missing field', () => {
    expect(checkCoParent({ name: ' ', email: '' })).toEqual({
      title: 'Missing information',
      message: 'Please provide both name and email',
      fields: { name: 'Name is required', email: 'Email is required' },
    });
    expect(checkCoParent({ name: 'Sam', email: '' })?.fields).toEqual({
      email: 'Email is required',
    });
    // Markup alone is no name.
    expect(checkCoParent({ name: '<b></b>', email: 'sam@example.org' })?.fields).toEqual({
      name: 'Name is required',
    });
  });

  it("uses the spec's texts for a bad name and a bad e-mail, marking both", () => {
    expect(checkCoParent({ name: 'Sam 2', email: 'sam@example.org' })).toEqual({
      title: 'Invalid name',
      message: 'Please enter a valid name (letters, spaces, hyphens, and apostrophes only)',
      fields: {
        name: 'Please enter a valid name (letters, spaces, hyphens, and apostrophes only)',
      },
    });
    expect(checkCoParent({ name: 'Sam', email: 'not-an-email' })).toEqual({
      title: 'Invalid email',
      message: 'Please enter a valid email address',
      fields: { email: 'Please enter a valid email address' },
    });
    const both = checkCoParent({ name: 'Sam 2', email: 'nope' });
    expect(both?.title).toBe('Invalid name');
    expect(Object.keys(both?.fields ?? {})).toEqual(['name', 'email']);
  });

  it('limits the name to 100 characters and the e-mail to 254', () => {
    expect(checkCoParent({ name: 'a'.repeat(100), email: 'sam@example.org' })).toBeNull();
    expect(checkCoParent({ name: 'a'.repeat(101), email: 'sam@example.org' })).toMatchObject({
      title: 'Invalid name',
      message: 'Name must be 100 characters or less',
    });
    expect(
      checkCoParent({ name: 'Sam', email: `${'a'.repeat(64)}@${'b'.repeat(190)}.org` }),
    ).toMatchObject({ title: 'Invalid email', message: 'Email must be 254 characters or less' });
  });

  it('passes a good invite', () => {
    expect(checkCoParent({ name: ' Jamie Rivera ', email: ' jamie@example.org ' })).toBeNull();
  });
});

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
    expect(fullDate('2026-11-23')).toBe('Monday, 23 November 2026');
  });

  it('has an emoji for every meal type', () => {
    expect(mealTypeEmoji('Lunch')).toBe('🥪');
    expect(mealTypeEmoji('Something else')).toBe('🍽️');
  });
});
