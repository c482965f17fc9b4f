// Highchair in the family's language (issue 32): the main screens in French, German and
// Spanish on the narrowest phone (320 px), each with no English left where the catalogue has
// the language's words, nothing wider than the screen, and axe clean; recipes generated there
// written in the language; the language a parent
// chooses on the profile page follows the account to another browser; a browser in none of
// the languages gets the server's default.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, test } from 'node:test';

import { assertAccessible } from '../lib/axe.mjs';
import { launch } from '../lib/browser.mjs';
import { startServer } from '../lib/server.mjs';

const LOCALES = resolve(import.meta.dirname, '../../../ui/src/locales');
const NARROW = { width: 320, height: 640 };
const LANGUAGES = { fr: 'fr-FR', de: 'de-DE', es: 'es-ES' };

/** A catalogue as key -> text. */
function catalogue(language) {
  const out = new Map();
  const walk = (node, at) => {
    for (const [k, v] of Object.entries(node)) {
      if (typeof v === 'string') out.set(at + k, v);
      else walk(v, `${at}${k}.`);
    }
  };
  walk(JSON.parse(readFileSync(resolve(LOCALES, `${language}.json`), 'utf8')), '');
  return out;
}

const EN = catalogue('en');
const t = (language, key) => catalogue(language).get(key);

/** The server's catalogue (flat, keyed by the English): what it says in `language`. */
function serverCatalogue(language) {
  const path = resolve(import.meta.dirname, `../../../locales/server/${language}.json`);
  return new Map(Object.entries(JSON.parse(readFileSync(path, 'utf8'))));
}

/**
 * What English left on a screen looks like for `language`: each English text (a pattern
 * where it names values) whose translation differs. Short words ("OK", "Email") are left out:
 * they are often the same word in the other language, or a name.
 */
function englishOf(language) {
  const patterns = [];
  // The ingredient catalogue's names too (keyed by the English): the picker shows them.
  const foods = JSON.parse(readFileSync(resolve(import.meta.dirname, `../../../locales/foods/${language}.json`), 'utf8'));
  const theirs = new Map([
    ...catalogue(language),
    ...[...serverCatalogue(language)].map(([k, v]) => [`server:${k}`, v]),
    ...Object.entries(foods).map(([k, v]) => [`food:${k}`, v]),
  ]);
  const english = [
    ...EN,
    ...[...serverCatalogue('en')].map(([k, v]) => [`server:${k}`, v]),
    ...Object.keys(foods).map((k) => [`food:${k}`, k]),
  ];
  for (const [key, en] of english) {
    const translated = theirs.get(key) ?? theirs.get(key.replace(/_(one|other)$/, '_other'));
    if (!translated || translated === en) continue;
    const plain = en.replace(/<\/?\w+>/g, '');
    if (plain.replace(/\{\{[^}]+\}\}/g, '').trim().split(/\s+/).length < 2) continue;
    const source = plain
      .split(/\{\{[^}]+\}\}/)
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.+');
    patterns.push({ key, en, re: new RegExp(`^${source}$`) });
  }
  return patterns;
}

const PARENT = { firstName: 'Amira', lastName: 'Khan', email: 'amira@example.org', password: 'correct horse', role: 'mom', acceptTerms: true };
const OTHER = { ...PARENT, firstName: 'Tom', email: 'tom@example.org', role: 'dad' };

let server;
let defaultDe;
let browser;
const data = {};

async function post(request, url, body) {
  const resp = await request.post(url, { data: body });
  assert.ok(resp.ok(), `${url}: ${resp.status()} ${await resp.text()}`);
  return resp.json();
}

/** A family with children, meals, a recipe, a list and a plan, seeded through the API. */
async function seed() {
  const context = await browser.newContext();
  const { request } = context;
  const api = `${server.url}/api`;
  await post(request, `${api}/auth/signup`, PARENT);
  const emma = await post(request, `${api}/children`, { name: 'Emma', age: 4, allergies: ['Peanuts', 'Milk'] });
  const leo = await post(request, `${api}/children`, { name: 'Leo', age: 1 });
  data.emma = emma.id;
  data.leo = leo.id;
  data.joinUrl = (await post(request, `${api}/family/invites`, {})).url;
  data.recipe = (await post(request, `${api}/recipes`, {
    source: 'own',
    title: 'Sunday Lentil Soup',
    ingredients: [{ name: 'Red lentils', quantity: '200 g' }, { name: 'Carrot', quantity: '2' }],
    instructions: ['Rinse the lentils.', 'Simmer with the carrots for 20 minutes.'],
    preparationTime: 10,
  })).id;
  await post(request, `${api}/grocery-lists`, {
    name: 'Saturday market',
    items: [
      { name: 'Bananas', quantity: '6', category: 'Produce', checked: true },
      { name: 'Milk', quantity: '2 l', category: 'Dairy' },
    ],
  });
  const week = await (await request.get(`${api}/meal-plan`)).json();
  const planned = await request.put(`${api}/meal-plan?week=${week.week}`, {
    data: { version: 0, entries: [{ date: week.days[0], mealType: 'Dinner', recipeId: data.recipe, servings: 4, childIds: [emma.id] }] },
  });
  assert.ok(planned.ok(), await planned.text());
  await post(request, `${api}/meals`, { childId: emma.id, mealType: 'Lunch', foods: ['Pasta', 'Peas'], portion: 'half', mood: 'happy' });
  await post(request, `${api}/meals`, { childId: leo.id, mealType: 'Breakfast', foods: ['Porridge'], portion: 'full', mood: 'neutral' });
  const share = await post(request, `${api}/co-parents`, { name: 'Grandma Zoë', email: 'zoe@example.org' });
  data.shareToken = new URL(share.link).pathname.split('/').pop();
  await post(request, `${api}/share/${data.shareToken}/session`, { pin: share.pin });
  await post(request, `${api}/share/${data.shareToken}/pin`, { pin: '482913', confirmPin: '482913' });
  await request.delete(`${api}/share/${data.shareToken}/session`);
  await context.close();
}

before(async () => {
  [server, defaultDe, browser] = await Promise.all([
    startServer(),
    startServer({ HIGHCHAIR_SERVER_LANGUAGE: 'de' }),
    launch(),
  ]);
  await seed();
});

after(async () => {
  await browser?.close();
  await Promise.all([server?.stop(), defaultDe?.stop()]);
});

const PUBLIC = ['/', '/about', '/privacy', '/terms', '/contact', '/login', '/signup', '/guest', '/forgot-password'];
const FAMILY = () => [
  '/dashboard',
  '/children',
  `/children/${data.emma}/foods`,
  `/children/${data.leo}/allergens`,
  '/meal-tracker',
  '/recipes',
  `/recipes/${data.recipe}`,
  '/grocery-list',
  '/meal-plan',
  '/profile',
];

/** Waits for a screen to settle: its heading, and no request in flight. */
async function settle(page) {
  await page.locator('h1').first().waitFor();
  await page.waitForLoadState('networkidle');
}

/** Every text a person reads or hears on the screen, a line each. */
async function textsOf(page) {
  return page.evaluate(() => {
    const out = document.body.innerText.split('\n');
    for (const el of document.querySelectorAll('[aria-label], [placeholder], [title], img[alt]')) {
      for (const attr of ['aria-label', 'placeholder', 'title', 'alt']) {
        const v = el.getAttribute(attr);
        if (v) out.push(v);
      }
    }
    return out.map((s) => s.trim()).filter(Boolean);
  });
}

/** Elements that reach past the right edge of the screen. */
async function overflowing(page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width + 1) return [];
    return [...document.querySelectorAll('body *')]
      .filter((el) => {
        const style = getComputedStyle(el);
        return (
          el.getBoundingClientRect().right > width + 1 &&
          el.getClientRects().length &&
          style.visibility !== 'hidden' &&
          style.opacity !== '0' &&
          !el.closest('dialog:not([open]), .toast')
        );
      })
      .slice(0, 5)
      .map((el) => `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 3).join('.')} "${(el.textContent ?? '').trim().slice(0, 40)}"`);
  });
}

/** The profile's save answered. */
function saved(page) {
  return page.waitForResponse((r) => r.url().endsWith('/api/profile') && r.request().method() === 'PATCH' && r.ok());
}

async function walk(page, language, paths) {
  const english = englishOf(language);
  const problems = [];
  for (const path of paths) {
    await page.goto(`${server.url}${path}`);
    await settle(page);
    assert.equal(await page.evaluate(() => document.documentElement.lang), LANGUAGES[language], path);
    // The page's description and the manifest an install reads speak the language too.
    const head = await page.evaluate(() => ({
      description: document.querySelector('meta[name="description"]')?.getAttribute('content'),
      manifest: document.querySelector('link[rel="manifest"]')?.getAttribute('href'),
    }));
    const app = JSON.parse(readFileSync(resolve(LOCALES, `${language}.json`), 'utf8')).app;
    assert.equal(head.description, app.metaDescription, path);
    const manifest = await (await page.request.get(`${server.url}${head.manifest}`)).json();
    assert.equal(manifest.description, app.description, path);
    assert.equal(manifest.lang, LANGUAGES[language], path);
    // The catalogue's food names are the picker's (the recipe form); a saved recipe's
    // ingredients are the family's own words.
    const picker = path === '/recipes';
    for (const text of await textsOf(page)) {
      const hit = english.find((e) => (picker || !e.key.startsWith('food:')) && e.re.test(text));
      if (hit) problems.push(`${path}: "${text}" is English (${hit.key})`);
    }
    for (const wide of await overflowing(page)) problems.push(`${path}: wider than 320 px: ${wide}`);
    await assertAccessible(page, `${language} ${path}`);
  }
  assert.deepEqual(problems, []);
}

/**
 * Recipes generated on the recipe screen (the built-in generator) are written in the
 * language: their titles, steps, tips and ingredient names.
 */
async function generate(page, language) {
  const foods = JSON.parse(readFileSync(resolve(import.meta.dirname, `../../../locales/foods/${language}.json`), 'utf8'));
  await page.goto(`${server.url}/recipes`);
  await settle(page);
  const search = page.getByLabel(t(language, 'recipes.picker.search'));
  for (const food of ['Chicken breast', 'Broccoli', 'Carrot']) {
    await search.fill(foods[food]);
    await page.getByRole('button', { name: foods[food], exact: true }).click();
  }
  await search.fill('');
  await page.getByRole('button', { name: t(language, 'recipes.create.generate') }).click();
  const article = page.getByRole('article');
  await article.waitFor();
  const texts = await textsOf(page);
  await article.getByRole('tab', { name: t(language, 'recipes.details.instructions') }).click();
  texts.push(...(await textsOf(page)));
  const english = englishOf(language);
  const problems = texts.flatMap((text) => {
    const hit = english.find((e) => e.re.test(text));
    return hit ? [`generated recipe: "${text}" is English (${hit.key})`] : [];
  });
  assert.deepEqual(problems, []);
  // The steps name the foods in the language ("le brocoli", "Brokkoli").
  const steps = (await article.innerText()).toLowerCase();
  assert.ok(['Broccoli', 'Carrot'].some((food) => steps.includes(foods[food].toLowerCase())), steps);
}

for (const language of Object.keys(LANGUAGES)) {
  test(`the main screens in ${language}: translated, 320 px wide, accessible`, async () => {
    const context = await browser.newContext({ locale: LANGUAGES[language], viewport: NARROW, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await walk(page, language, PUBLIC);
    const login = await context.request.post(`${server.url}/api/auth/login`, { data: { email: PARENT.email, password: PARENT.password } });
    assert.ok(login.ok());
    await walk(page, language, FAMILY());
    await generate(page, language);
    await context.request.post(`${server.url}/api/auth/logout`);
    // A co-parent's pages follow their own browser: the PIN page, then the family's view.
    await walk(page, language, [`/co-parent/accept/${data.shareToken}`]);
    await post(context.request, `${server.url}/api/share/${data.shareToken}/session`, { pin: '482913' });
    await walk(page, language, [`/co-parent/dashboard/${data.shareToken}`]);
    await context.close();
  });
}

test('a language chosen on the profile page follows the account, and not the other parent', async () => {
  const context = await browser.newContext({ locale: 'en-GB' });
  const page = await context.newPage();
  await context.request.post(`${server.url}/api/auth/login`, { data: { email: PARENT.email, password: PARENT.password } });
  await page.goto(`${server.url}/profile`);
  await page.getByRole('heading', { level: 1, name: t('en', 'profile.title') }).waitFor();
  // The choice is saved with the account before the page is loaded again ('networkidle' is
  // long reached by then: it would not wait for the save).
  await Promise.all([saved(page), page.getByLabel(t('en', 'profile.language.label')).selectOption('fr')]);
  await page.getByRole('heading', { level: 1, name: t('fr', 'profile.title') }).waitFor();
  await page.reload();
  await page.getByRole('heading', { level: 1, name: t('fr', 'profile.title') }).waitFor();

  // Another browser, in English: the account's language wins.
  const other = await browser.newContext({ locale: 'en-GB' });
  const phone = await other.newPage();
  await other.request.post(`${server.url}/api/auth/login`, { data: { email: PARENT.email, password: PARENT.password } });
  await phone.goto(`${server.url}/meal-tracker`);
  await phone.getByRole('heading', { level: 1, name: t('fr', 'meals.tracker.title') }).waitFor();

  // The other parent of the family keeps their browser's language.
  const dad = await browser.newContext({ locale: 'en-GB' });
  const dadPage = await dad.newPage();
  await post(dad.request, `${server.url}/api/family/join/${new URL(data.joinUrl).pathname.split('/').pop()}`, OTHER);
  await dadPage.goto(`${server.url}/profile`);
  await dadPage.getByRole('heading', { level: 1, name: t('en', 'profile.title') }).waitFor();

  // Automatic again: the browser's language.
  await Promise.all([saved(page), page.getByLabel(t('fr', 'profile.language.label')).selectOption('')]);
  await page.reload();
  await page.getByRole('heading', { level: 1, name: t('en', 'profile.title') }).waitFor();
  await Promise.all([context.close(), other.close(), dad.close()]);
});

test("a browser in none of the languages gets the server's default", async () => {
  const context = await browser.newContext({ locale: 'it-IT' });
  const page = await context.newPage();
  await page.goto(`${defaultDe.url}/`);
  await page.getByRole('heading', { level: 1, name: t('de', 'landing.hero.heading') }).waitFor();
  assert.equal(await page.evaluate(() => document.documentElement.lang), 'de-DE');
  await context.close();
});
