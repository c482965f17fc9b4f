// A parent at the table: the meal form names a food the child is allergic to before saving,
// saves it anyway as a planned exposure, then edits the meal to say it was yesterday's lunch
// with a mild reaction. The list follows when it was eaten, grouped by day.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { PHONE, launch, openPage, screenshot } from '../lib/browser.mjs';
import { startServer } from '../lib/server.mjs';

let server;
let browser;

before(async () => {
  server = await startServer();
  browser = await launch();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A `datetime-local` value for `date` in the browser's (and this process's) time zone. */
function localInput(date) {
  const pad = (n) => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

test('an allergen is named before saving, and a meal is edited and back-dated', async () => {
  const page = await openPage(browser, server.url, PHONE);
  await page.goto(`${server.url}/about`);
  const api = `${server.url}/api`;
  const signup = await page.request.post(`${api}/auth/signup`, {
    data: { firstName: 'Amira', lastName: 'Khan', email: 'amira@example.org', password: 'correct horse', role: 'mom', acceptTerms: true },
  });
  assert.equal(signup.status(), 201);
  const child = await page.request.post(`${api}/children`, { data: { name: 'Emma', age: 2, allergies: ['Milk'] } });
  assert.equal(child.status(), 201);

  await page.goto(`${server.url}/meal-tracker`);
  await page.getByRole('button', { name: 'Record Meal' }).first().click();
  const form = page.getByRole('dialog', { name: 'Record Meal' });
  await form.getByLabel('Meal type').selectOption('Breakfast');
  await form.getByLabel('Foods', { exact: true }).fill('Buttered toast');
  await form.getByLabel('Foods', { exact: true }).press('Enter');
  await form.getByRole('button', { name: 'Save Meal' }).click();
  await form.getByRole('list', { name: 'Food safety for Emma' }).getByText('Buttered toast contains milk (butter)').waitFor();
  await form.getByRole('alert').getByText(/^Save anyway only if this is a planned introduction/).waitFor();
  await screenshot(page, 'meal-allergy-warning', { fullPage: false });
  // Nothing was saved yet.
  const before = await (await page.request.get(`${api}/meals`)).json();
  assert.equal(before.items.length, 0);
  await form.getByRole('button', { name: 'Save Anyway' }).click();
  const toast = page.getByText('Meal recorded! 🍽️');
  await toast.waitFor();
  // On a phone the toast keeps clear of the page's heading.
  const [t, h] = [await toast.boundingBox(), await page.getByRole('heading', { level: 1 }).boundingBox()];
  assert.ok(t.y > h.y + h.height || t.y + t.height < h.y, `toast ${JSON.stringify(t)} covers the heading ${JSON.stringify(h)}`);
  const card = page.getByRole('article', { name: 'Breakfast of Emma' });
  await card.getByText('Allergen exposure').waitFor();
  await page.getByRole('heading', { level: 2, name: 'Today' }).waitFor();

  // Edited: it was yesterday's lunch, plain toast, and Emma had a mild reaction.
  await card.getByRole('button', { name: 'Meal actions' }).click();
  await page.getByRole('menuitem', { name: 'Edit' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Meal' });
  assert.equal(await edit.getByLabel('Meal type').inputValue(), 'Breakfast');
  await edit.getByLabel('Meal type').selectOption('Lunch');
  const yesterday = new Date();
  yesterday.setDate(yesterday.getDate() - 1);
  yesterday.setHours(12, 30, 0, 0);
  await edit.getByLabel('When eaten').fill(localInput(yesterday));
  await edit.getByRole('button', { name: 'Remove Buttered toast' }).click();
  await edit.getByLabel('Foods', { exact: true }).fill('Dry toast');
  await edit.getByLabel('Foods', { exact: true }).press('Enter');
  await edit.getByLabel('Reaction').selectOption('mild');
  await edit.getByLabel('What happened').fill('Red cheeks');
  await edit.getByRole('button', { name: 'Save Changes' }).click();
  await page.getByText('Meal updated').waitFor();
  await edit.waitFor({ state: 'hidden' });

  const edited = page.getByRole('article', { name: 'Lunch of Emma' });
  await edited.getByText('Mild reaction').waitFor();
  await page.getByRole('region', { name: 'Yesterday' }).getByRole('article', { name: 'Lunch of Emma' }).waitFor();
  assert.equal(await edited.getByText('Allergen exposure').count(), 0);
  await screenshot(page, 'meal-edited-yesterday');

  const after = await (await page.request.get(`${api}/meals`)).json();
  assert.equal(after.items.length, 1);
  const saved = after.items[0];
  assert.deepEqual(saved.foods, ['Dry toast']);
  assert.equal(new Date(saved.mealDate).getTime(), yesterday.getTime());
  assert.equal(saved.reaction, 'mild');
  assert.equal(saved.version, 2);

  // The food history, reached from the child's card, knows both toasts and the reaction.
  await page.goto(`${server.url}/children`);
  await page.getByRole('link', { name: 'Food history of Emma' }).click();
  await page.getByRole('heading', { level: 1, name: "Emma's food history" }).waitFor();
  const foods = page.getByRole('list', { name: 'Foods' });
  await foods.getByRole('heading', { name: 'Dry toast' }).waitFor();
  await page.getByText('1 food tried · 1 new this week').waitFor();
  await foods.getByText('Mild reaction on').waitFor();
  await page.getByLabel('Search foods').fill('bread');
  await page.getByText('No food matches “bread”.').waitFor();
  await page.getByLabel('Search foods').fill('TOAST');
  await foods.getByRole('heading', { name: 'Dry toast' }).waitFor();
  await screenshot(page, 'food-history');

  // Removing Emma says what goes with her.
  await page.goto(`${server.url}/children`);
  await page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Emma' }) }).getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog', { name: 'Remove child' }).getByText('This also deletes 1 meal.').waitFor();
  assert.deepEqual(page.problems(), []);
});

test('a file that is no photo is refused in the form, with the spec\'s title', async () => {
  const page = await openPage(browser, server.url, PHONE);
  await page.goto(`${server.url}/about`);
  const login = await page.request.post(`${server.url}/api/auth/login`, {
    data: { email: 'amira@example.org', password: 'correct horse' },
  });
  assert.equal(login.status(), 200);
  await page.goto(`${server.url}/meal-tracker`);
  await page.getByRole('button', { name: 'Record Meal' }).first().click();
  const form = page.getByRole('dialog', { name: 'Record Meal' });
  await form.getByLabel('Photo').setInputFiles({ name: 'notes.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 not a photo') });
  await page.getByText('Photo upload failed').waitFor();
  await form.getByRole('alert').getByText('Please choose an image file (JPEG, PNG, WebP or GIF).').waitFor();
  assert.equal(await form.getByRole('img', { name: 'Selected photo' }).count(), 0, 'no broken preview');
  await page.context().close();
});

test('a phone gets the medium photo size, sharp at 3x', async () => {
  const context = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.goto(`${server.url}/about`);
  const api = `${server.url}/api`;
  const r = await page.request.post(`${api}/auth/signup`, {
    data: { firstName: 'Priya', lastName: 'Shah', email: 'priya@example.org', password: 'correct horse', role: 'mom', acceptTerms: true },
  });
  assert.equal(r.status(), 201);
  const child = await (await page.request.post(`${api}/children`, { data: { name: 'Ravi' } })).json();
  const b64 = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 2000;
    canvas.height = 1500;
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#3a7d44';
    ctx.fillRect(0, 0, 2000, 1500);
    return canvas.toDataURL('image/jpeg', 0.8).split(',')[1];
  });
  const media = await page.request.post(`${api}/media`, {
    multipart: { file: { name: 'dinner.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(b64, 'base64') } },
  });
  assert.equal(media.status(), 201);
  const meal = await page.request.post(`${api}/meals`, { data: { childId: child.id, mealType: 'Dinner', foods: ['Dal'], photo: (await media.json()).id } });
  assert.equal(meal.status(), 201);
  await page.goto(`${server.url}/meal-tracker`);
  const img = page.getByRole('article', { name: 'Dinner of Ravi' }).getByRole('img', { name: 'Photo of Dal' });
  await img.waitFor();
  await page.waitForFunction((el) => el.complete && el.currentSrc, await img.elementHandle());
  const src = await img.evaluate((el) => el.currentSrc);
  assert.match(src, /size=medium$/, `the card loaded ${src}`);
  await context.close();
});
