// Long and unusual text never widens a page: a 100-character name, an emoji-first child name,
// a long URL in the notes and long food names, on every signed-in screen at 320, 390 and
// 1280 px. A page wider than the screen puts buttons out of reach on a phone.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { launch, screenshot } from '../lib/browser.mjs';
import { startServer } from '../lib/server.mjs';

const LONG_NAME = 'Maximiliana-Josephine'.padEnd(100, 'x');
const CHILD = '🌟 Wilhelmina-Konstantinopolous-Featherstonehaugh the Magnificent of Llanfairpwllgwyngyll';
const URL_NOTE = `Recipe: https://example.org/${'very-long-path-segment-'.repeat(12)}?ref=highchair&utm=none`;
const FOOD = 'Supercalifragilisticexpialidocious-sweet-potato-and-butternut-squash-mash';

let server;
let browser;
const data = {};

before(async () => {
  server = await startServer();
  browser = await launch();
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}/about`);
  const api = `${server.url}/api`;
  const post = async (path, body) => {
    const r = await page.request.post(`${api}${path}`, { data: body });
    assert.ok(r.ok(), `${path}: ${r.status()} ${await r.text()}`);
    return r.json();
  };
  await post('/auth/signup', { firstName: LONG_NAME, lastName: LONG_NAME, email: 'long@example.org', password: 'correct horse', role: 'mom', acceptTerms: true });
  const child = await post('/children', { name: CHILD, age: 3, allergies: [FOOD, 'Milk'], dietaryRestrictions: [FOOD] });
  data.child = child.id;
  for (let i = 0; i < 3; i++) {
    await post('/meals', { childId: child.id, mealType: 'Afternoon Snack', foods: [FOOD, `${FOOD}-${i}`, 'Buttered toast'], notes: URL_NOTE, reaction: 'severe', reactionNote: URL_NOTE });
  }
  await post('/family/invites', {});
  data.cookies = await context.cookies();
  await context.close();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const SCREENS = [
  { name: 'dashboard', path: () => '/dashboard' },
  { name: 'children', path: () => '/children' },
  { name: 'meal tracker', path: () => '/meal-tracker' },
  { name: 'profile', path: () => '/profile' },
  { name: 'food history', path: () => `/children/${data.child}/foods` },
  {
    name: 'edit meal dialog',
    path: () => '/meal-tracker',
    act: async (page) => {
      await page.getByRole('button', { name: 'Meal actions' }).first().click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      await page.getByRole('dialog', { name: 'Edit Meal' }).waitFor();
    },
  },
];

for (const width of [320, 390, 1280]) {
  test(`nothing is wider than the screen at ${width}px`, async () => {
    const context = await browser.newContext({ viewport: { width, height: 800 }, isMobile: width < 500, hasTouch: width < 500 });
    await context.addCookies(data.cookies);
    const page = await context.newPage();
    const wide = [];
    for (const screen of SCREENS) {
      await page.goto(`${server.url}${screen.path()}`);
      await page.getByRole('heading', { level: 1 }).first().waitFor();
      await page.waitForLoadState('networkidle');
      if (screen.act) await screen.act(page);
      const sizes = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth,
        screen: window.innerWidth,
        // The widest element sticking out, to say what overflows.
        culprit: [...document.querySelectorAll('body *')]
          .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
          .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].slice(0, 3).join('.')}`)
          .slice(-3),
      }));
      if (sizes.page > sizes.screen) wide.push(`${screen.name}: ${sizes.page}px (${sizes.culprit.join(' < ')})`);
      await screenshot(page, `long-text-${screen.name.replace(/ /g, '-')}-${width}`);
    }
    assert.deepEqual(wide, [], `pages wider than ${width}px`);
    await context.close();
  });
}
