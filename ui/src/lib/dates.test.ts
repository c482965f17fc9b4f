import { afterEach, describe, expect, it } from 'vitest';

import { dateLocale, formatDate, formatDay } from './dates';

function browserSays(languages: string[]) {
  Object.defineProperty(navigator, 'languages', { value: languages, configurable: true });
  Object.defineProperty(navigator, 'language', { value: languages[0] ?? '', configurable: true });
}

describe('dates follow the browser', () => {
  afterEach(() => browserSays(['en-GB', 'en']));

  it('in a UK browser, day before month and a 24-hour clock', () => {
    const evening = new Date(2026, 10, 23, 18, 30);
    expect(formatDate(evening, 'medium')).toBe('23 Nov 2026');
    expect(formatDate(evening, 'time')).toBe('18:30');
    expect(formatDay('2026-11-23', 'weekday')).toBe('Monday 23 Nov');
  });

  it('in an American browser, the American order: every screen the same way', () => {
    browserSays(['en-US']);
    const evening = new Date(2026, 10, 23, 18, 30);
    expect(dateLocale()).toBe('en-US');
    expect(formatDate(evening, 'medium')).toBe('Nov 23, 2026');
    expect(formatDate(evening, 'time')).toBe('06:30 PM');
  });

  it('en-GB when the browser names no language Intl knows', () => {
    browserSays(['', 'not a tag!']);
    expect(dateLocale()).toBe('en-GB');
  });
});
