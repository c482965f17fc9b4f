// A baby's plate (issue 30): the meal form says what the foods mean for the child's age as they
// are typed (a choking hazard, honey before 12 months), with the advice and its source; a food
// described as prepared the safe way gets the advice without the alarm; a child without an age
// gets a prompt for a birth month. Saving still works, after a second press.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { PHONE, launch, openPage, screenshot } from '../lib/browser.mjs';
import { assertAccessible } from '../lib/axe.mjs';
import { startServer } from '../lib/server.mjs';

let server;
let browser;

before(async () => {
  [server, browser] = await Promise.all([startServer(), launch()]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** The "YYYY-MM" of `n` months ago. */
function monthsAgo(n) {
  const d = new Date();
  d.setDate(1);
  d.setMonth(d.getMonth() - n);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}

async function addFood(form, food) {
  await form.getByLabel('Foods', { exact: true }).fill(food);
  await form.getByLabel('Foods', { exact: true }).press('Enter');
}

test("the meal form warns about a baby's choking hazards and age rules as foods are typed", async () => {
  const page = await openPage(browser, server.url, PHONE);
  await page.goto(`${server.url}/about`);
  const api = `${server.url}/api`;
  const signup = await page.request.post(`${api}/auth/signup`, {
    data: { firstName: 'Amira', lastName: 'Khan', email: 'amira@example.org', password: 'correct horse', role: 'mom', acceptTerms: true },
  });
  assert.equal(signup.status(), 201);
  for (const child of [{ name: 'Leo', birthMonth: monthsAgo(9) }, { name: 'Zoe' }]) {
    assert.equal((await page.request.post(`${api}/children`, { data: child })).status(), 201);
  }

  await page.goto(`${server.url}/meal-tracker`);
  await page.getByRole('button', { name: 'Record Meal' }).first().click();
  const form = page.getByRole('dialog', { name: 'Record Meal' });
  await form.getByLabel('Child').selectOption({ label: 'Leo' });
  await form.getByLabel('Meal type').selectOption('Breakfast');
  await addFood(form, 'Grapes');
  await addFood(form, 'Porridge with honey');

  // Shown as the foods are typed, before any Save.
  const safety = form.getByRole('list', { name: 'Food safety for Leo' });
  const grapes = safety.getByRole('listitem').filter({ hasText: 'Choking risk for Leo (9 months): Grapes' });
  await grapes.waitFor();
  await grapes.getByText('Cut grapes, cherry tomatoes and berries lengthways into quarters').waitFor();
  const source = grapes.getByRole('link', { name: /Department for Education/ });
  assert.match(await source.getAttribute('href'), /^https:\/\/help-for-early-years-providers\.education\.gov\.uk\//);
  const honey = safety.getByRole('listitem').filter({ hasText: 'Not for this age for Leo (9 months): Porridge with honey' });
  await honey.getByText(/infant botulism/).waitFor();
  await screenshot(page, 'meal-food-safety', { fullPage: false });

  // Quartered grapes keep the advice, without the alarm.
  await form.getByRole('button', { name: 'Remove Grapes' }).click();
  await addFood(form, 'Grapes, quartered lengthways');
  await safety.getByText("Described as prepared the safe way for Leo's age.").waitFor();

  // Honey still asks again before saving; then the meal is saved.
  await form.getByRole('button', { name: 'Save Meal' }).click();
  await form.getByRole('alert').getByText('Save anyway if you are preparing it the safe way.').waitFor();
  assert.equal((await (await page.request.get(`${api}/meals`)).json()).items.length, 0);
  await form.getByRole('button', { name: 'Save Anyway' }).click();
  await page.getByText('Meal recorded! 🍽️').waitFor();
  const meals = (await (await page.request.get(`${api}/meals`)).json()).items;
  assert.deepEqual(meals[0].foods, ['Porridge with honey', 'Grapes, quartered lengthways']);

  // The meal plan: a free-text entry for the family names Leo's notes before it is saved,
  // and the week keeps them.
  await page.goto(`${server.url}/meal-plan`);
  await page.getByRole('region', { name: /^Monday/ }).waitFor();
  await page.getByRole('button', { name: /^Add a meal on Monday/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Plan a meal' });
  await dialog.getByLabel('Something else').check();
  await dialog.getByLabel("What's planned").fill('Cherry tomatoes and popcorn');
  await dialog.getByRole('button', { name: 'Add to Plan' }).click();
  const alert = dialog.getByRole('alert');
  await alert.getByText('Food safety for the children').waitFor();
  await alert.getByText(/^For Leo \(\d+ months\): quarter the cherry tomatoes lengthways/).waitFor();
  await alert.getByText(/^For Leo \(\d+ months\): no popcorn/).waitFor();
  assert.equal((await (await page.request.get(`${api}/meal-plan`)).json()).version, 0, 'nothing saved by the warning');
  await dialog.getByRole('button', { name: 'Plan Anyway' }).click();
  await page.getByText('Meal planned').waitFor();
  const notes = page.getByRole('region', { name: /^Monday/ }).getByRole('list', { name: 'Food safety notes' });
  assert.match(await notes.innerText(), /For Leo \(\d+ months\): quarter the cherry tomatoes lengthways/);
  await screenshot(page, 'meal-plan-food-safety', { fullPage: false });

  // A child with no age: no age rule, and a gentle prompt for a birth month.
  await page.goto(`${server.url}/meal-tracker`);
  await page.getByRole('button', { name: 'Record Meal' }).first().click();
  await form.getByLabel('Child').selectOption({ label: 'Zoe' });
  await addFood(form, 'Honey');
  await form.getByText("Add Zoe's birth month to their profile to check foods for their age.").waitFor();
  assert.equal(await form.getByRole('list', { name: 'Food safety for Zoe' }).count(), 0);
  await page.close();
});

test("a baby's allergen page shows progress from the meal log, what to try next and when to see a doctor", async () => {
  const page = await openPage(browser, server.url, PHONE);
  await page.goto(`${server.url}/about`);
  const api = `${server.url}/api`;
  const signup = await page.request.post(`${api}/auth/signup`, {
    data: { firstName: 'Bea', lastName: 'Ng', email: 'bea@example.org', password: 'correct horse', role: 'mom', acceptTerms: true },
  });
  assert.equal(signup.status(), 201);
  const mia = await (await page.request.post(`${api}/children`, { data: { name: 'Mia', birthMonth: monthsAgo(8), allergies: ['sesame'] } })).json();
  const meal = async (daysAgo, foods, reaction = 'none') => {
    const mealDate = new Date(Date.now() - daysAgo * 86_400_000).toISOString();
    const r = await page.request.post(`${api}/meals`, {
      data: { childId: mia.id, mealType: 'Lunch', foods, mealDate, reaction, reactionNote: reaction === 'none' ? '' : 'Hives' },
    });
    assert.equal(r.status(), 201, await r.text());
  };
  for (const d of [1, 2, 4]) await meal(d, ['Scrambled egg']);
  for (const d of [10, 12, 13]) await meal(d, ['Salmon']);
  await meal(3, ['Yoghurt'], 'mild');

  // The dashboard nudges about the lapsed one.
  await page.goto(`${server.url}/dashboard`);
  await page.getByRole('link', { name: 'Fish: not given for over 7 days' }).click();
  await page.waitForURL(`${server.url}/children/${mia.id}/allergens`);
  await page.getByRole('heading', { level: 1, name: "Mia's allergens" }).waitFor();
  const list = page.getByRole('list', { name: 'Allergens for Mia' });
  const row = (name) => list.getByRole('listitem').filter({ hasText: name });
  await row('Eggs').getByText('Regular', { exact: true }).waitFor();
  await row('Fish').getByText('Lapsed', { exact: true }).waitFor();
  await row('Milk').getByText('Reaction: stop and see a doctor').waitFor();
  await row('Sesame').getByText('Allergy: avoid').waitFor();
  await row('Peanuts').getByText('Not started').waitFor();
  // One at a time: the first not started in the list, never Mia's allergy.
  await page.getByText('Next to try: Celery.').waitFor();
  await page.getByText(/This page is not medical advice/).waitFor();
  assert.match(await page.getByRole('link', { name: /^NHS: Food allergies/ }).getAttribute('href'), /^https:\/\/www\.nhs\.uk\//);
  await screenshot(page, 'allergen-introduction', { fullPage: true });
  await assertAccessible(page, 'allergen introduction');

  // Reached from the child's card too.
  await page.goto(`${server.url}/children`);
  await page.getByRole('link', { name: 'Allergens of Mia' }).click();
  await page.getByRole('heading', { level: 1, name: "Mia's allergens" }).waitFor();

  // The family follows the US list instead: chosen in the family settings, the page follows.
  await page.getByText('Allergen list: UK and EU, the 14 allergens of food law.').waitFor();
  await page.getByRole('link', { name: 'Change the list in your family settings' }).click();
  await page.waitForURL(`${server.url}/profile`);
  const settings = page.getByRole('region', { name: 'Family settings' });
  await settings.getByRole('radio', { name: /US, the 9 major food allergens/ }).check();
  await settings.getByRole('button', { name: 'Save Settings' }).click();
  await page.getByText('Settings saved').waitFor();
  await screenshot(page, 'family-settings', { fullPage: true });
  await assertAccessible(page, 'family settings');
  await page.goBack();
  await page.getByText('Allergen list: US, the 9 major food allergens.').waitFor();
  assert.equal(await list.getByRole('listitem').count(), 9);
  await row('Wheat').getByText('Not started').waitFor();
  assert.equal(await row('Celery').count(), 0);
  await page.getByText('Next to try: Crustacean shellfish.').waitFor();
  await page.close();
});

test("a saved recipe shows each child's notes on its card and its page", async () => {
  const page = await openPage(browser, server.url, PHONE);
  await page.goto(`${server.url}/about`);
  const api = `${server.url}/api`;
  const signup = await page.request.post(`${api}/auth/signup`, {
    data: { firstName: 'Cal', lastName: 'Ode', email: 'cal@example.org', password: 'correct horse', role: 'dad', acceptTerms: true },
  });
  assert.equal(signup.status(), 201);
  assert.equal((await page.request.post(`${api}/children`, { data: { name: 'Ivy', birthMonth: monthsAgo(10) } })).status(), 201);
  const saved = await page.request.post(`${api}/recipes`, {
    data: {
      source: 'own',
      title: 'Fruit salad with honey',
      ingredients: [
        { name: 'Grapes', quantity: '100 g' },
        { name: 'Honey', quantity: '1 tsp' },
      ],
      instructions: ['Mix.'],
    },
  });
  assert.equal(saved.status(), 201);
  const note = 'For Ivy (10 months): quarter the grapes lengthways; no honey before 12 months';

  await page.goto(`${server.url}/recipes`);
  await page.getByRole('tab', { name: 'My Recipes' }).click();
  const card = page.getByRole('list', { name: 'My recipes' }).getByRole('listitem').filter({ hasText: 'Fruit salad with honey' }).first();
  await card.getByRole('list', { name: 'Notes for the children' }).getByText(note).waitFor();
  await card.getByRole('link', { name: 'View Recipe' }).click();
  await page.getByRole('heading', { level: 1, name: 'Fruit salad with honey' }).waitFor();
  await page.getByRole('list', { name: 'Notes for the children' }).getByText(note).waitFor();
  await screenshot(page, 'recipe-safety-notes', { fullPage: false });
  await page.close();
});
