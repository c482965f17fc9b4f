import { describe, expect, it } from 'vitest';

import { initial } from './text';

describe('initial', () => {
  it('is a whole grapheme', () => {
    expect(initial('emma')).toBe('E');
    expect(initial('émile')).toBe('É');
    expect(initial('👩‍👧 Mia')).toBe('👩‍👧');
    expect(initial('👍🏽 Sam')).toBe('👍🏽');
    expect(initial('Guest_zoë')).toBe('Z');
    expect(initial('  ')).toBe('?');
  });
});
