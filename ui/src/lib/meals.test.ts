import { describe, expect, it } from 'vitest';

import {
  addTag,
  ageBadge,
  ageLabel,
  monthsAge,
  feedbackLabel,
  formatShortDate,
  formatToday,
  likingMood,
  moodEmoji,
  moodLabel,
  portionLabel,
  removeTag,
} from './meals';

describe('meal labels', () => {
  it('use the spec words', () => {
    expect(portionLabel('none')).toBe('None');
    expect(portionLabel('half')).toBe('Half portion');
    expect(portionLabel('full')).toBe('Full portion');
    expect(portionLabel('seconds')).toBe('Had seconds');
    expect(feedbackLabel('loved')).toBe('Loved it');
    expect(feedbackLabel('disliked')).toBe("Didn't like it");
    expect(feedbackLabel('seconds')).toBe('Had seconds');
    expect(feedbackLabel(null)).toBe('');
    expect(moodEmoji('happy')).toBe('😋');
    expect(moodEmoji('sad')).toBe('😞');
  });

  it("give a food history's liking the meal cards' mood words and emoji", () => {
    expect(moodLabel(likingMood('liked'))).toBe('Loved it');
    expect(moodEmoji(likingMood('liked'))).toBe('😋');
    expect(moodLabel(likingMood('mixed'))).toBe('Neutral');
    expect(moodEmoji(likingMood('mixed'))).toBe('😐');
    expect(moodLabel(likingMood('disliked'))).toBe('Disliked');
    expect(moodEmoji(likingMood('disliked'))).toBe('😞');
  });

  it('say ages and dates naturally', () => {
    expect(ageLabel(4)).toBe('4 years old');
    expect(monthsAge(9)).toBe('9 months');
    expect(monthsAge(1)).toBe('1 month');
    expect(monthsAge(24)).toBeNull();
    expect(monthsAge(null)).toBeNull();
    expect(ageLabel(1)).toBe('1 year old');
    expect(ageBadge(0)).toBe('0 years');
    expect(formatToday(new Date(2026, 10, 22))).toBe(
      'Sunday 22 November 2026'.replace('Sunday ', 'Sunday, '),
    );
    expect(formatShortDate(new Date(2025, 4, 20, 18, 30).toISOString())).toBe('20 May, 18:30');
  });
});

describe('tag lists', () => {
  it('add trimmed, non-empty, new entries only', () => {
    expect(addTag(['Peanuts'], '  Milk ')).toEqual(['Peanuts', 'Milk']);
    const same = ['Peanuts'];
    expect(addTag(same, 'peanuts')).toBe(same);
    expect(addTag(same, '   ')).toBe(same);
  });

  it('remove by position', () => {
    expect(removeTag(['a', 'b', 'a2'], 1)).toEqual(['a', 'a2']);
  });
});
