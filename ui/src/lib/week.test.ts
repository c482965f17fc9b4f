import { describe, expect, it } from 'vitest';

import { addWeeks, dayLabel, daysOf, mondayOf, weekLabel, weekOf, weeksIn } from './week';

describe('ISO weeks', () => {
  it('finds the Monday of a week, across year ends', () => {
    expect(mondayOf('2026-W48')?.toISOString().slice(0, 10)).toBe('2026-11-23');
    expect(mondayOf('2027-W01')?.toISOString().slice(0, 10)).toBe('2027-01-04');
    expect(mondayOf('2020-W53')?.toISOString().slice(0, 10)).toBe('2020-12-28');
    expect(mondayOf('2026-W53')?.toISOString().slice(0, 10)).toBe('2026-12-28');
    expect(mondayOf('2025-W53')).toBeNull();
    expect(mondayOf('2026-W00')).toBeNull();
    expect(mondayOf('2026-48')).toBeNull();
  });

  it('knows long years', () => {
    expect(weeksIn(2020)).toBe(53);
    expect(weeksIn(2026)).toBe(53);
    expect(weeksIn(2025)).toBe(52);
  });

  it('says which week a day is in', () => {
    expect(weekOf(new Date(2026, 10, 24))).toBe('2026-W48');
    // 1 Jan 2027 is a Friday: still the last week of 2026, which has 53.
    expect(weekOf(new Date(2027, 0, 1))).toBe('2026-W53');
    expect(weekOf(new Date(2021, 0, 3))).toBe('2020-W53');
  });

  it('steps weeks forward and back over year ends', () => {
    expect(addWeeks('2026-W52', 1)).toBe('2026-W53');
    expect(addWeeks('2026-W53', 1)).toBe('2027-W01');
    expect(addWeeks('2027-W01', -1)).toBe('2026-W53');
    expect(addWeeks('2020-W53', 1)).toBe('2021-W01');
  });

  it('lists the days and labels them', () => {
    expect(daysOf('2026-W48')).toEqual([
      '2026-11-23',
      '2026-11-24',
      '2026-11-25',
      '2026-11-26',
      '2026-11-27',
      '2026-11-28',
      '2026-11-29',
    ]);
    expect(weekLabel('2026-W48')).toBe('Week of 23 Nov 2026');
    expect(dayLabel('2026-11-23')).toBe('Monday 23 Nov');
  });
});
