/**
 * The first letter of a name for an avatar: a whole grapheme (an emoji with its joiners and
 * skin tone, a letter with its accent), upper-cased; '?' for an empty name.
 */
export function initial(name: string): string {
  const text = name.replace(/^Guest_/, '').trim();
  const segments = new Intl.Segmenter(undefined, { granularity: 'grapheme' }).segment(text);
  const first = segments[Symbol.iterator]().next().value?.segment ?? '';
  return first ? first.toUpperCase() : '?';
}
