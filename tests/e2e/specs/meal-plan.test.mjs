// The week's meal plan on a phone: place a saved recipe for a child with an allergy (and see
// the warning) and a free-text meal, move between weeks, edit and remove, make a grocery list
// scaled to the planned servings; a second phone of the family sees the plan change live.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { DESKTOP, PHONE, launch, openPage, screenshot } from '../lib/browser.mjs';
import { expectEventually } from '../lib/eventually.mjs';
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

before(async () => {
  [server, browser] = await Promise.all([startServer(), launch()]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

async function signedIn(viewport, { signUp = false } = {}) {
  const page = await openPage(browser, server.url, viewport);
  await page.goto(`${server.url}/about`);
  const api = `${server.url}/api`;
  const r = signUp
    ? await page.request.post(`${api}/auth/signup`, { data: PARENT })
    : await page.request.post(`${api}/auth/login`, { data: { email: PARENT.email, password: PARENT.password } });
  assert.ok(r.ok(), await r.text());
  return page;
}

/** Opens the plan and, unless `live` is false, waits for the change feed. */
async function openPlan(page, { live = true } = {}) {
  const stream = live && page.waitForResponse((r) => r.url() === `${server.url}/api/events` && r.status() === 200);
  await page.goto(`${server.url}/meal-plan`);
  await page.getByRole('heading', { name: 'Meal Plan' }).waitFor();
  await page.getByRole('region', { name: /^Monday/ }).waitFor();
  await stream;
}

/** A day's section: the first day of the week is Monday, and so on. */
function day(page, name) {
  return page.getByRole('region', { name: new RegExp(`^${name}`) });
}

test('a parent plans the week on a phone and shops for it', async () => {
  const page = await signedIn(PHONE, { signUp: true });
  const api = `${server.url}/api`;
  const emma = await page.request.post(`${api}/children`, { data: { name: 'Emma', age: 4, allergies: ['Milk'] } });
  assert.equal(emma.status(), 201);
  await page.request.post(`${api}/children`, { data: { name: 'Noah', age: 2 } });
  const pasta = await page.request.post(`${api}/recipes`, {
    data: {
      source: 'own',
      title: 'Pasta bake',
      description: '',
      ingredients: [{ name: 'Penne', quantity: '200 g' }, { name: 'Cheddar cheese', quantity: '100 g' }],
      instructions: ['Bake it.'],
      preparationTime: 10,
      servings: 2,
    },
  });
  assert.equal(pasta.status(), 201, await pasta.text());

  await openPlan(page);
  assert.equal(await page.getByText('Nothing planned').count(), 7);
  const make = page.getByRole('button', { name: 'Make a grocery list from this week' });
  assert.ok(await make.isDisabled(), 'nothing to shop for yet');

  // A saved recipe on Monday, for Emma, for 4.
  await page.getByRole('button', { name: /^Add a meal on Monday/ }).click();
  let dialog = page.getByRole('dialog', { name: 'Plan a meal' });
  await dialog.getByLabel('Recipe', { exact: true }).selectOption({ label: 'Pasta bake' });
  assert.equal(await dialog.getByLabel('Servings').inputValue(), '2', "the recipe's servings");
  await dialog.getByLabel('Servings').fill('4');
  await dialog.getByLabel('Meal type').selectOption('Dinner');
  await dialog.getByLabel('Emma').check();
  await dialog.getByRole('button', { name: 'Add to Plan' }).click();
  // Emma's allergy is named before it is saved; the parent plans it anyway.
  assert.match(await dialog.getByRole('alert').innerText(), /Emma is allergic: .*milk/i);
  await dialog.getByRole('button', { name: 'Plan Anyway' }).click();
  await page.getByText('Meal planned').waitFor();
  const monday = day(page, 'Monday');
  await monday.getByRole('link', { name: 'Pasta bake' }).waitFor();
  assert.match(await monday.innerText(), /Serves 4 · Emma/);
  assert.match(await monday.getByRole('list', { name: 'Allergy warnings' }).innerText(), /Emma is allergic: .*milk/i);

  // Free text on Tuesday, for the whole family.
  await page.getByRole('button', { name: /^Add a meal on Tuesday/ }).click();
  dialog = page.getByRole('dialog', { name: 'Plan a meal' });
  await dialog.getByLabel('Something else').check();
  await dialog.getByRole('button', { name: 'Add to Plan' }).click();
  await dialog.getByText("Say what's planned, e.g. leftovers").waitFor();
  await dialog.getByLabel("What's planned").fill('Leftovers');
  await dialog.getByLabel('Meal type').selectOption('Lunch');
  await dialog.getByRole('button', { name: 'Add to Plan' }).click();
  await day(page, 'Tuesday').getByText('Leftovers').waitFor();
  assert.match(await day(page, 'Tuesday').innerText(), /Lunch[\s\S]*Leftovers[\s\S]*Whole family/);
  await screenshot(page, 'meal-plan');

  // Another week is empty; coming back shows this one.
  const label = await page.getByRole('navigation', { name: 'Week' }).innerText();
  await page.getByRole('button', { name: 'Next week' }).click();
  await page.waitForURL(/week=\d{4}-W\d{2}/);
  await page.getByRole('button', { name: 'This week', exact: true }).waitFor();
  await expectEventually(async () => assert.equal(await page.getByText('Nothing planned').count(), 7));
  await page.getByRole('button', { name: 'Previous week' }).click();
  await day(page, 'Monday').getByRole('link', { name: 'Pasta bake' }).waitFor();
  assert.equal(await page.getByRole('navigation', { name: 'Week' }).innerText(), label);

  // Edit: Noah instead of Emma, and the warning goes.
  await page.getByRole('button', { name: /^Edit Pasta bake on Monday/ }).click();
  dialog = page.getByRole('dialog', { name: 'Edit planned meal' });
  await dialog.getByLabel('Emma').uncheck();
  await dialog.getByLabel('Noah').check();
  await dialog.getByRole('button', { name: 'Save Changes' }).click();
  await page.getByText('Plan updated').waitFor();
  await expectEventually(async () => assert.match(await monday.innerText(), /Serves 4 · Noah/));
  assert.equal(await monday.getByRole('list', { name: 'Allergy warnings' }).count(), 0);

  // The week's shopping: the recipe scaled from 2 to 4 servings.
  await make.click();
  const draft = page.getByRole('dialog', { name: 'Create Grocery List' });
  assert.match(await draft.getByLabel('List name').inputValue(), /^Meal plan, week of \d{1,2} [A-Z][a-z]{2}$/);
  assert.match(await draft.getByRole('region', { name: 'Dry Goods & Pasta' }).innerText(), /Penne\s*400 g/);
  // The draft says what an item means for the children, under the item (issue 30).
  assert.match(
    await draft.getByRole('region', { name: 'Dairy' }).innerText(),
    /Cheddar cheese\s*Emma is allergic: Cheddar cheese contains milk \(cheddar\)\s*200 g/,
  );
  assert.equal(
    await draft.getByRole('list', { name: 'Notes on Cheddar cheese' }).innerText(),
    'Emma is allergic: Cheddar cheese contains milk (cheddar)',
  );
  await draft.getByText('2 items').waitFor();
  await draft.getByRole('button', { name: 'Save List' }).click();
  await page.waitForURL(`${server.url}/grocery-list`);
  await page.getByRole('article', { name: /^Meal plan, week of/ }).getByText('0 of 2 items checked').waitFor();

  // Remove the free-text meal.
  await page.goto(`${server.url}/meal-plan`);
  await page.getByRole('button', { name: /^Remove Leftovers on Tuesday/ }).click();
  await page.getByText('Removed from the plan').waitFor();
  await day(page, 'Tuesday').getByText('Nothing planned').waitFor();
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('two devices plan the same week at once; both changes stay and show live', async () => {
  const phone = await signedIn(PHONE);
  const desktop = await signedIn(DESKTOP);
  // The phone hears nothing of the desktop's change (as on a flaky connection), so it saves
  // from the older week.
  await phone.route('**/api/events', (route) => route.abort());
  await openPlan(phone, { live: false });
  await openPlan(desktop);
  await screenshot(desktop, 'meal-plan');

  // The desktop adds Wednesday; the phone, still holding the older week, adds Thursday: its
  // save meets a 409 and is applied again to the newer week.
  await desktop.getByRole('button', { name: /^Add a meal on Wednesday/ }).click();
  let dialog = desktop.getByRole('dialog', { name: 'Plan a meal' });
  await dialog.getByLabel('Something else').check();
  await dialog.getByLabel("What's planned").fill('Jacket potatoes');
  await dialog.getByRole('button', { name: 'Add to Plan' }).click();
  await desktop.getByText('Meal planned').waitFor();

  await phone.getByRole('button', { name: /^Add a meal on Thursday/ }).click();
  dialog = phone.getByRole('dialog', { name: 'Plan a meal' });
  await dialog.getByLabel('Something else').check();
  await dialog.getByLabel("What's planned").fill('Tacos');
  const refused = phone.waitForResponse(
    (r) => r.request().method() === 'PUT' && r.url().includes('/api/meal-plan') && r.status() === 409,
  );
  await dialog.getByRole('button', { name: 'Add to Plan' }).click();
  await refused;
  await phone.getByText('Meal planned').waitFor();
  // Both meals are in the week: the phone's change was applied again to the newer week.
  await day(phone, 'Wednesday').getByText('Jacket potatoes').waitFor();
  await day(phone, 'Thursday').getByText('Tacos').waitFor();

  // The desktop sees the phone's meal without reloading.
  await expectEventually(async () => assert.equal(await day(desktop, 'Thursday').getByText('Tacos').count(), 1), 2_000);
  await phone.context().close();
  await desktop.context().close();
});
