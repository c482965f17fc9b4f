// Long and unusual text never widens a page or pushes a button out of reach: 100-character
// names with no space to break at (the server's limit) in every field a screen shows (first and
// last name, child, foods, allergies, notes, recipe title, list and item names, the co-parent's
// name and e-mail), an emoji-first child name and a long URL in the notes, on every screen (the
// owner's, their dialogs and the co-parent's) at 320, 390 and 1280 px. A page wider than the
// screen, or an Edit, Delete or Save button past its edge, is out of reach on a phone.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { launch, screenshot } from '../lib/browser.mjs';
import { startServer } from '../lib/server.mjs';

/** `word` repeated to exactly 100 characters: no space or hyphen for the browser to break at. */
const unbroken = (word) => word.repeat(Math.ceil(100 / word.length)).slice(0, 100);

const FIRST = unbroken('Maximiliana');
const LAST = unbroken('Featherstonehaugh');
const CHILD = '🌟 Wilhelmina-Konstantinopolous-Featherstonehaugh the Magnificent of Llanfairpwllgwyngyll';
const LONG_CHILD = unbroken('Konstantinopolous');
const URL_NOTE = `Recipe: https://example.org/${'very-long-path-segment-'.repeat(12)}?ref=highchair&utm=none`;
const FOOD = 'Supercalifragilisticexpialidocious-sweet-potato-and-butternut-squash-mash';
const LONG_FOOD = unbroken('Butternutsquash');
const ALLERGY = unbroken('Peanutbutter');
const RESTRICTION = unbroken('Vegetarian');
const NOTE = unbroken('Atehalfthenrefused');
const RECIPE = unbroken('Lentilsoup');
const INGREDIENT = unbroken('Redlentils');
const STEP = unbroken('Simmergently');
const LIST = unbroken('Weeklyshop');
const ITEM = unbroken('Strawberries');
const PLAN_TEXT = unbroken('Leftovers');
const CO_PARENT = unbroken('Bartholomew');
const CO_PARENT_EMAIL = `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.org`;
const SHARE_PIN = '482913';

let server;
let browser;
const data = {};

async function post(request, path, body, method = 'post') {
  const r = await request[method](`${server.url}/api${path}`, { data: body });
  assert.ok(r.ok(), `${path}: ${r.status()} ${await r.text()}`);
  return r.status() === 204 ? null : r.json();
}

before(async () => {
  server = await startServer();
  browser = await launch();
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${server.url}/about`);
  const { request } = page;
  await post(request, '/auth/signup', { firstName: FIRST, lastName: LAST, email: 'long@example.org', password: 'correct horse', role: 'mom', acceptTerms: true });
  const child = await post(request, '/children', { name: CHILD, age: 3, allergies: [FOOD, 'Milk'], dietaryRestrictions: [FOOD] });
  const long = await post(request, '/children', { name: LONG_CHILD, age: 1, allergies: [ALLERGY], dietaryRestrictions: [RESTRICTION] });
  data.child = child.id;
  data.long = long.id;
  for (let i = 0; i < 3; i++) {
    await post(request, '/meals', { childId: child.id, mealType: 'Afternoon Snack', foods: [FOOD, `${FOOD}-${i}`, 'Buttered toast'], notes: URL_NOTE, reaction: 'severe', reactionNote: URL_NOTE });
  }
  await post(request, '/meals', { childId: long.id, mealType: 'Evening Snack', foods: [LONG_FOOD, ALLERGY], notes: NOTE, feedback: 'loved', reaction: 'mild', reactionNote: NOTE });
  await post(request, '/family/invites', {});
  const recipe = await post(request, '/recipes', {
    source: 'own',
    title: RECIPE,
    description: unbroken('Ourfamilysoup'),
    ingredients: [{ name: INGREDIENT, quantity: '200 g' }, { name: 'Carrot', quantity: '2' }],
    instructions: [STEP, 'Serve warm.'],
    preparationTime: 10,
  });
  data.recipe = recipe.id;
  await post(request, '/grocery-lists', {
    name: LIST,
    items: [
      { name: ITEM, quantity: '2', category: 'Produce' },
      { name: unbroken('Semiskimmedmilk'), quantity: '1', category: 'Dairy', checked: true },
      { name: 'Bread', quantity: '1', category: 'Bakery' },
    ],
  });
  const week = await (await request.get(`${server.url}/api/meal-plan`)).json();
  await post(request, `/meal-plan?week=${week.week}`, {
    version: 0,
    entries: [
      { date: week.days[0], mealType: 'Dinner', recipeId: recipe.id, servings: 4, childIds: [long.id, child.id] },
      { date: week.days[1], mealType: 'Lunch', text: PLAN_TEXT, childIds: [long.id] },
    ],
  }, 'put');
  // A co-parent with the longest name and e-mail the server takes, who has chosen a PIN.
  const co = await post(request, '/co-parents', { name: CO_PARENT, email: CO_PARENT_EMAIL });
  data.share = new URL(co.link).pathname.split('/').pop();
  await post(request, `/share/${data.share}/session`, { pin: co.pin });
  await post(request, `/share/${data.share}/pin`, { pin: SHARE_PIN, confirmPin: SHARE_PIN });
  await request.delete(`${server.url}/api/share/${data.share}/session`);
  data.cookies = await context.cookies();
  await context.close();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

const dialog = (page, name) => page.getByRole('dialog', { name });

/** Opens the header's Co-Parent Access dialog: from the header, or on a phone from the side menu. */
async function openCoParents(page) {
  if (page.viewportSize().width < 768) {
    await page.getByRole('button', { name: 'Open menu' }).click();
    await dialog(page, 'Menu').getByRole('button', { name: 'Co-Parents' }).click();
  } else {
    await page.getByRole('banner').getByRole('button', { name: 'Co-Parents' }).click();
  }
  await dialog(page, 'Co-Parent Access').waitFor();
}

/**
 * A screen: where it is, what to do there (`act`), and the buttons (accessible names) that
 * must be on it and within the screen's width; every other visible button is checked too.
 */
const OWNER_SCREENS = [
  { name: 'dashboard', path: () => '/dashboard', ready: (page) => page.getByRole('list', { name: 'Recent meals' }).getByRole('listitem').first().waitFor(), buttons: ['Add Child', `View Profile of ${LONG_CHILD}`] },
  {
    name: 'dashboard add child dialog',
    path: () => '/dashboard',
    act: async (page) => {
      await page.getByRole('button', { name: 'Add Child' }).click();
      const form = dialog(page, 'Add Child');
      await form.getByLabel('Name').fill(LONG_CHILD);
      await form.getByLabel('Allergies', { exact: true }).fill(ALLERGY);
      await form.getByLabel('Allergies', { exact: true }).press('Enter');
      await form.getByRole('list', { name: 'Added allergies' }).waitFor();
    },
    buttons: ['Save', 'Cancel', 'Close'],
  },
  { name: 'children', path: () => '/children', ready: (page) => page.getByRole('heading', { name: LONG_CHILD }).waitFor(), buttons: ['Edit', 'Remove', `Food history of ${LONG_CHILD}`] },
  {
    name: 'children edit',
    path: () => '/children',
    act: async (page) => {
      await page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: LONG_CHILD }) }).getByRole('button', { name: 'Edit' }).click();
      await page.getByRole('button', { name: 'Save Changes' }).waitFor();
    },
    buttons: ['Save Changes', `Remove ${ALLERGY}`],
  },
  {
    name: 'children remove dialog',
    path: () => '/children',
    act: async (page) => {
      await page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: LONG_CHILD }) }).getByRole('button', { name: 'Remove' }).click();
      await dialog(page, 'Remove child').waitFor();
    },
    buttons: ['Remove', 'Cancel'],
  },
  { name: 'meal tracker', path: () => '/meal-tracker', ready: (page) => page.getByText(NOTE).first().waitFor(), buttons: ['Record Meal', 'Meal actions'] },
  {
    name: 'meal tracker menu',
    path: () => '/meal-tracker',
    act: async (page) => {
      await page.getByRole('article', { name: `Evening Snack of ${LONG_CHILD}` }).getByRole('button', { name: 'Meal actions' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).waitFor();
    },
    buttons: ['Edit', 'Delete'],
  },
  {
    name: 'edit meal dialog',
    path: () => '/meal-tracker',
    act: async (page) => {
      await page.getByRole('article', { name: `Evening Snack of ${LONG_CHILD}` }).getByRole('button', { name: 'Meal actions' }).click();
      await page.getByRole('menuitem', { name: 'Edit' }).click();
      await dialog(page, 'Edit Meal').waitFor();
    },
    buttons: [`Remove ${LONG_FOOD}`, 'Close'],
  },
  { name: 'food history', path: () => `/children/${data.child}/foods`, ready: (page) => page.getByRole('list', { name: 'Foods' }).waitFor() },
  { name: 'food history long', path: () => `/children/${data.long}/foods`, ready: (page) => page.getByRole('heading', { name: LONG_FOOD }).waitFor() },
  { name: 'recipes', path: () => '/recipes', ready: (page) => page.getByRole('button', { name: 'Chicken breast' }).waitFor(), buttons: ['Generate Recipes'] },
  {
    name: 'my recipes',
    path: () => '/recipes',
    act: async (page) => {
      await page.getByRole('tab', { name: 'My Recipes' }).click();
      await page.getByRole('link', { name: 'View Recipe' }).first().waitFor();
    },
    buttons: ['View Recipe'],
  },
  { name: 'recipe', path: () => `/recipes/${data.recipe}`, ready: (page) => page.getByText(INGREDIENT).waitFor() },
  { name: 'grocery lists', path: () => '/grocery-list', ready: (page) => page.getByRole('article', { name: LIST }).waitFor(), buttons: ['New List', `Edit ${LIST}`, `Delete ${LIST}`] },
  {
    name: 'grocery list create dialog',
    path: () => '/grocery-list',
    act: async (page) => {
      await page.getByRole('article', { name: LIST }).waitFor();
      await page.getByRole('button', { name: 'New List' }).click();
      const form = dialog(page, 'Create Grocery List');
      await form.getByLabel('List name').fill(LIST);
      await form.getByLabel('Item name').fill(ITEM);
      await form.getByLabel('Quantity').fill('12');
      await form.getByRole('button', { name: 'Add item' }).click();
      await form.getByRole('button', { name: `Remove ${ITEM}` }).waitFor();
    },
    buttons: ['Save List', 'Cancel', `Remove ${ITEM}`, 'Close'],
  },
  {
    name: 'grocery list edit dialog',
    path: () => '/grocery-list',
    act: async (page) => {
      await page.getByRole('button', { name: `Edit ${LIST}` }).click();
      await dialog(page, 'Edit Grocery List').waitFor();
    },
    buttons: ['Save List', 'Cancel', 'Export', `Remove ${ITEM}`, 'Close'],
  },
  {
    name: 'grocery list delete dialog',
    path: () => '/grocery-list',
    act: async (page) => {
      await page.getByRole('button', { name: `Delete ${LIST}` }).click();
      await dialog(page, 'Delete grocery list?').waitFor();
    },
    buttons: ['Delete', 'Cancel'],
  },
  { name: 'meal plan', path: () => '/meal-plan', ready: (page) => page.getByText(PLAN_TEXT).first().waitFor(), buttons: ['Previous week', 'Next week'] },
  { name: 'profile', path: () => '/profile', ready: (page) => page.getByLabel('First name').waitFor(), buttons: ['Save Changes', 'Sign Out'] },
  {
    name: 'co-parent access dialog',
    path: () => '/dashboard',
    act: async (page) => {
      await openCoParents(page);
      const box = dialog(page, 'Co-Parent Access');
      await box.getByRole('tab', { name: 'Manage' }).click();
      await box.getByRole('article', { name: CO_PARENT }).waitFor();
    },
    buttons: ['Copy Link', 'Reset PIN', 'Remove', 'Close'],
  },
  { name: 'co-parent management', path: () => '/co-parent', ready: (page) => page.getByRole('article', { name: CO_PARENT }).waitFor(), buttons: ['Copy Link', 'Reset PIN', 'Remove'] },
];

/** The co-parent's own pages, through their link and PIN. */
const CO_PARENT_SCREENS = [
  { name: 'co-parent accept', path: () => `/co-parent/accept/${data.share}`, ready: (page) => page.getByText(CO_PARENT).first().waitFor(), buttons: ['Access Dashboard'] },
  { name: 'co-parent dashboard', path: () => `/co-parent/dashboard/${data.share}`, signIn: true, ready: (page) => page.getByText(LONG_FOOD).first().waitFor(), buttons: ['Logout'] },
  {
    name: 'co-parent grocery list',
    path: () => `/co-parent/dashboard/${data.share}`,
    signIn: true,
    act: async (page) => {
      await page.getByRole('tab', { name: 'Grocery List' }).click();
      await page.getByRole('article', { name: LIST }).waitFor();
    },
    buttons: ['Logout'],
  },
];

/**
 * How wide the page is (against `width`, the screen's), and every visible button or link-button (named) that is not wholly
 * within the screen's width. Buttons in a row the user scrolls sideways (tabs) are left out.
 */
function measure(width) {
  const scrolls = (e) => {
    for (let p = e.parentElement; p; p = p.parentElement) {
      const { overflowX } = getComputedStyle(p);
      if (overflowX === 'auto' || overflowX === 'scroll') return true;
    }
    return false;
  };
  const nameOf = (e) => (e.getAttribute('aria-label') ?? e.textContent ?? '').trim().replace(/\s+/g, ' ');
  const buttons = [...document.querySelectorAll('button, a.btn, [role="button"], [role="menuitem"]')]
    .filter((e) => e.checkVisibility({ visibilityProperty: true }) && e.getBoundingClientRect().width > 0)
    .map((e) => {
      const r = e.getBoundingClientRect();
      return { name: nameOf(e), left: r.left, right: r.right, scrolls: scrolls(e) };
    });
  return {
    page: document.documentElement.scrollWidth,
    // The width asked for, not innerWidth: a phone's browser widens its layout viewport to fit a
    // page that is too wide (and zooms out), so innerWidth grows with the page.
    screen: width,
    buttons,
    // The widest element sticking out, to say what overflows.
    culprit: [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > width + 1)
      .map((e) => `${e.tagName.toLowerCase()}.${[...e.classList].slice(0, 3).join('.')}`)
      .slice(-3),
  };
}

async function checkScreens(page, screens, width) {
  const problems = [];
  page.setDefaultTimeout(10_000);
  for (const screen of screens) {
    if (screen.signIn) {
      const r = await page.request.post(`${server.url}/api/share/${data.share}/session`, { data: { pin: SHARE_PIN } });
      assert.ok(r.ok(), await r.text());
    }
    await page.goto(`${server.url}${screen.path()}`);
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    try {
      await screen.ready?.(page);
      await page.waitForLoadState('networkidle');
      await screen.act?.(page);
    } catch (err) {
      // A button that cannot be reached (covered by text that overflows) is one of the problems.
      problems.push(`${screen.name}: ${err.message.split('\n').slice(0, 2).join(' ')}`);
      await screenshot(page, `long-text-${screen.name.replace(/ /g, '-')}-${width}`, { fullPage: false });
      continue;
    }
    const sizes = await page.evaluate(measure, width);
    if (sizes.page > sizes.screen) problems.push(`${screen.name}: page ${sizes.page}px wide (${sizes.culprit.join(' < ')})`);
    const out = sizes.buttons.filter((b) => !b.scrolls && (b.left < -1 || b.right > sizes.screen + 1));
    for (const b of out) problems.push(`${screen.name}: "${b.name.slice(0, 40)}" at ${Math.round(b.left)}-${Math.round(b.right)}px`);
    for (const name of screen.buttons ?? []) {
      if (!sizes.buttons.some((b) => b.name === name)) problems.push(`${screen.name}: no visible "${name.slice(0, 40)}" button`);
    }
    await screenshot(page, `long-text-${screen.name.replace(/ /g, '-')}-${width}`, { fullPage: !screen.act });
  }
  return problems;
}

for (const width of [320, 390, 1280]) {
  describe(`at ${width}px`, () => {
    const open = async () => browser.newContext({ viewport: { width, height: 800 }, isMobile: width < 500, hasTouch: width < 500, locale: 'en-GB' });

    test('no owner screen is wider than the screen, and its buttons are on it', async () => {
      const context = await open();
      await context.addCookies(data.cookies);
      const problems = await checkScreens(await context.newPage(), OWNER_SCREENS, width);
      await context.close();
      assert.deepEqual(problems, [], `too wide at ${width}px`);
    });

    test("no co-parent screen is wider than the screen, and its buttons are on it", async () => {
      const context = await open();
      const problems = await checkScreens(await context.newPage(), CO_PARENT_SCREENS, width);
      await context.close();
      assert.deepEqual(problems, [], `too wide at ${width}px`);
    });
  });
}
