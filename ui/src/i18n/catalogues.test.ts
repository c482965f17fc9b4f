/**
 * The catalogues against each other and the code: every language has every text (in each of
 * its plural forms), names the same values and tags, and every key the code asks for exists.
 * docs/translating.md says how to add a language; this is the check it points to.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

import { describe, expect, it } from 'vitest';

import { LANGUAGES } from './languages';

type Tree = { [key: string]: string | Tree };

const LOCALES = join(__dirname, '../locales');
const SRC = join(__dirname, '..');

function load(language: string): Map<string, string> {
  const tree = JSON.parse(readFileSync(join(LOCALES, `${language}.json`), 'utf8')) as Tree;
  const flat = new Map<string, string>();
  const walk = (node: Tree, at: string) => {
    for (const [k, v] of Object.entries(node)) {
      const key = at ? `${at}.${k}` : k;
      if (typeof v === 'string') flat.set(key, v);
      else walk(v, key);
    }
  };
  walk(tree, '');
  return flat;
}

const PLURAL = /_(zero|one|two|few|many|other)$/;

/** The keys a language must have: English's, with each plural in that language's forms. */
function wanted(english: Map<string, string>, language: string): Map<string, string> {
  const forms = new Intl.PluralRules(language).resolvedOptions().pluralCategories;
  const out = new Map<string, string>();
  for (const [key, text] of english) {
    const base = key.replace(PLURAL, '');
    if (base === key) out.set(key, text);
    else if (key.endsWith('_other')) for (const f of forms) out.set(`${base}_${f}`, text);
  }
  return out;
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*([^}\s,]+)[^}]*\}\}/g)].map((m) => m[1] ?? '').sort();
const tags = (text: string) =>
  [...text.matchAll(/<\/?([A-Za-z][\w-]*)\s*\/?>/g)].map((m) => m[0]).sort();

const english = load('en');

describe('the catalogues', () => {
  for (const language of Object.keys(LANGUAGES).filter((l) => l !== 'en')) {
    it(`${language} has every text, with the same values and tags`, () => {
      const catalogue = load(language);
      const problems: string[] = [];
      const want = wanted(english, language);
      for (const [key, en] of want) {
        const text = catalogue.get(key);
        if (text === undefined) {
          problems.push(`missing ${key}`);
          continue;
        }
        if (!text.trim()) problems.push(`empty ${key}`);
        const plural = PLURAL.test(key);
        const strip = (names: string[]) => (plural ? names.filter((n) => n !== 'count') : names);
        if (strip(placeholders(text)).join() !== strip(placeholders(en)).join())
          problems.push(`${key} names ${placeholders(text)}, the English ${placeholders(en)}`);
        if (tags(text).join() !== tags(en).join())
          problems.push(`${key} has tags ${tags(text)}, the English ${tags(en)}`);
      }
      for (const key of catalogue.keys()) if (!want.has(key)) problems.push(`extra ${key}`);
      expect(problems).toEqual([]);
    });
  }

  it('English has both forms of every counted text', () => {
    const bases = [...english.keys()]
      .filter((k) => PLURAL.test(k))
      .map((k) => k.replace(PLURAL, ''));
    const lonely = bases.filter((b) => !english.has(`${b}_one`) || !english.has(`${b}_other`));
    expect(lonely).toEqual([]);
  });

  it('uses no tag name that HTML keeps empty (<Trans> would lose the text inside)', () => {
    const VOID = /<(area|base|br|col|embed|hr|img|input|link|meta|param|source|track|wbr)\s*\/?>/;
    const bad = [...english].filter(([, text]) => VOID.test(text)).map(([key]) => key);
    expect(bad).toEqual([]);
  });
});

/** Every TS/TSX file of the UI but tests. */
function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === 'locales' ? [] : sources(path);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('the code', () => {
  it('asks only for keys English has', () => {
    const missing: string[] = [];
    for (const file of sources(SRC)) {
      const code = readFileSync(file, 'utf8');
      const asked = [
        ...code.matchAll(/\bt\(\s*'([a-zA-Z][\w.]*)'/g),
        ...code.matchAll(/i18nKey="([a-zA-Z][\w.]*)"/g),
      ].map((m) => m[1] ?? '');
      for (const key of asked) {
        if (!english.has(key) && !english.has(`${key}_other`)) missing.push(`${file}: ${key}`);
      }
    }
    expect(missing).toEqual([]);
  });
});
