// A child's safety information on every screen that shows or chooses food (issue 26): the
// co-parent sees an allergen exposure and a reaction exactly as the parent does, and the
// allergy warnings of the week's plan; the meal plan checks free text before it is saved and
// on the week; the recipe picker marks an ingredient a child's allergy leaves out and says
// plainly why.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { DESKTOP, PHONE, launch, openPage, screenshot } from '../lib/browser.mjs';
import { startServer } from '../lib/server.mjs';

const PARENT = {
  firstName: 'Amira',
  lastName: 'Khan',
  email: 'amira@example.org',
  password: 'correct horse',
  role: 'mom',
  acceptTerms: true,
};

let server;
let browser;
/** The parent's cookies, signed up once (sign-ins are rate limited). */
let cookies = null;
/** Ada: allergic to milk and eggs. */
let ada = null;

before(async () => {
  [server, browser] = await Promise.all([startServer(), launch()]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function post(request, path, body) {
  const r = await request.post(`${server.url}${path}`, { data: body });
  assert.ok(r.ok(), `${path}: ${r.status()} ${await r.text()}`);
  return r.status() === 204 ? null : r.json();
}

async function parent(viewport) {
  const page = await openPage(browser, server.url, viewport);
  await page.goto(`${server.url}/about`);
  if (cookies) {
    await page.context().addCookies(cookies);
  } else {
    await post(page.request, '/api/auth/signup', PARENT);
    cookies = await page.context().cookies();
    ada = await post(page.request, '/api/children', { name: 'Ada', age: 2, allergies: ['milk', 'eggs'] });
  }
  return page;
}

/** The ISO week of a date ("2026-W48"), as the plan names weeks. */
function isoWeek(date) {
  const d = new Date(Date.UTC(date.getFullYear(), date.getMonth(), date.getDate()));
  const day = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - day);
  const year = d.getUTCFullYear();
  const week = Math.ceil(((d - Date.UTC(year, 0, 1)) / 86_400_000 + 1) / 7);
  return { week: `${year}-W${String(week).padStart(2, '0')}`, monday: mondayOf(date) };
}

function mondayOf(date) {
  const d = new Date(date);
  d.setDate(d.getDate() - ((d.getDay() + 6) % 7));
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

test('the meal plan warns about free text before saving and on the week', async () => {
  const page = await parent(PHONE);
  const stream = page.waitForResponse((r) => r.url() === `${server.url}/api/events` && r.status() === 200);
  await page.goto(`${server.url}/meal-plan`);
  await page.getByRole('region', { name: /^Monday/ }).waitFor();
  await stream;

  await page.getByRole('button', { name: /^Add a meal on Monday/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Plan a meal' });
  await dialog.getByLabel('Something else').check();
  await dialog.getByLabel("What's planned").fill('Cheese sandwich');
  await dialog.getByLabel('Meal type').selectOption('Lunch');
  await dialog.getByRole('button', { name: 'Add to Plan' }).click();
  // Named before anything is saved, in the matcher's words; the second press plans it.
  const alert = dialog.getByRole('alert');
  await alert.getByText('Ada is allergic: Cheese sandwich contains milk (cheese)').waitFor();
  await screenshot(page, 'meal-plan-free-text-warning');
  const week = await (await page.request.get(`${server.url}/api/meal-plan`)).json();
  assert.equal(week.version, 0, 'nothing saved by the warning');
  await dialog.getByRole('button', { name: 'Plan Anyway' }).click();
  await page.getByText('Meal planned').waitFor();
  const monday = page.getByRole('region', { name: /^Monday/ });
  assert.match(
    await monday.getByRole('list', { name: 'Allergy warnings' }).innerText(),
    /Ada is allergic: Cheese sandwich contains milk \(cheese\)/,
  );

  // A safe meal goes straight in, with no warning.
  await page.getByRole('button', { name: /^Add a meal on Tuesday/ }).click();
  await dialog.getByLabel('Something else').check();
  await dialog.getByLabel("What's planned").fill('Rice and peas');
  await dialog.getByRole('button', { name: 'Add to Plan' }).click();
  await page.getByRole('region', { name: /^Tuesday/ }).getByText('Rice and peas').waitFor();
  assert.equal(await page.getByRole('region', { name: /^Tuesday/ }).getByRole('list', { name: 'Allergy warnings' }).count(), 0);
  await page.context().close();
});

test('the co-parent sees an exposure, a reaction and the plan warnings as the parent does', async () => {
  const desk = await parent(DESKTOP);
  const { request } = desk;
  // Saved with Save Anyway: the meal is an exposure, and Ada had a mild reaction.
  await post(request, '/api/meals', {
    childId: ada.id,
    mealType: 'Breakfast',
    foods: ['Cheese toast'],
    reaction: 'mild',
    reactionNote: 'Red cheeks for an hour',
  });
  const { week, monday } = isoWeek(new Date());
  const plan = await (await request.get(`${server.url}/api/meal-plan?week=${week}`)).json();
  await request.put(`${server.url}/api/meal-plan?week=${week}`, {
    data: {
      version: plan.version,
      entries: [...plan.entries.map((e) => ({ id: e.id, date: e.date, mealType: e.mealType, ...(e.recipeId ? { recipeId: e.recipeId } : { text: e.title }), servings: e.servings, childIds: e.childIds })),
        { date: monday, mealType: 'Dinner', text: 'Egg fried rice' }],
    },
  });

  // The parent's card.
  await desk.goto(`${server.url}/meal-tracker`);
  const parentCard = desk.getByRole('article', { name: 'Breakfast of Ada' });
  await parentCard.getByText('Allergen exposure').waitFor();
  const parentText = await parentCard.innerText();
  assert.match(parentText, /Cheese toast contains milk \(cheese\)/);
  assert.match(parentText, /Mild reaction: Red cheeks for an hour/);

  // The co-parent's card says the same.
  const made = await post(request, '/api/co-parents', { name: 'Grandma Zoe', email: 'zoe@example.org' });
  const token = made.link.split('/').pop();
  const phone = await openPage(browser, server.url, PHONE);
  await phone.goto(`${server.url}/about`);
  await post(phone.request, `/api/share/${token}/session`, { pin: made.pin });
  await phone.goto(`${server.url}/co-parent/dashboard/${token}`);
  const card = phone.getByRole('article', { name: 'Breakfast of Ada' });
  await card.getByText('Allergen exposure').waitFor();
  const shared = await card.innerText();
  assert.match(shared, /Cheese toast contains milk \(cheese\)/);
  assert.match(shared, /Mild reaction: Red cheeks for an hour/);
  const weekPlan = phone.getByRole('region', { name: "This week's meal plan" });
  const warned = (await weekPlan.getByRole('list', { name: 'Allergy warnings' }).allInnerTexts()).join('\n');
  assert.match(warned, /Ada is allergic: Egg fried rice contains eggs \(egg\)/);
  assert.match(warned, /Ada is allergic: Cheese sandwich contains milk \(cheese\)/);
  await screenshot(phone, 'co-parent-exposure');
  // The allergen introduction, read only, as the parents see it (issue 30).
  await phone.getByText("Ada's allergens").click();
  const allergens = phone.getByRole('list', { name: 'Allergens for Ada' });
  await allergens.getByRole('listitem').filter({ hasText: 'Milk' }).getByText('Allergy: avoid').waitFor();
  await allergens.getByRole('listitem').filter({ hasText: 'Peanuts' }).getByText('Not started').waitFor();
  await phone.context().close();
  await desk.context().close();
});

test('the recipe picker marks what a child is allergic to and says why it is left out', async () => {
  const page = await parent(DESKTOP);
  await page.goto(`${server.url}/recipes`);
  await page.getByRole('heading', { name: 'Chef-Quality Recipes' }).waitFor();
  await page.getByRole('tab', { name: 'Protein' }).click();
  const eggs = page.getByRole('button', { name: 'Eggs', exact: false }).filter({ hasText: /^Eggs$/ });
  await eggs.getByLabel('Left out for an allergy or restriction').waitFor();
  assert.equal(await eggs.getAttribute('aria-description'), 'Eggs was left out: Ada is allergic to eggs.');
  await eggs.click();
  const why = page.getByRole('list', { name: 'Left out of the recipes' });
  await why.getByText('Eggs was left out: Ada is allergic to eggs.').waitFor();
  // Chicken is not marked, and choosing it leaves nothing to explain for it.
  const chicken = page.getByRole('button', { name: 'Chicken breast' });
  assert.equal(await chicken.getByLabel('Left out for an allergy or restriction').count(), 0);
  await screenshot(page, 'recipes-left-out');
  await page.context().close();
});
