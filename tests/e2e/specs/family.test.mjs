// A parent's family flows: children, the meal tracker with photos from a phone, and the
// profile picture.
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

/** A JPEG made by the browser itself (no fixture files), as a buffer for setInputFiles. */
async function cameraPhoto(page, colour) {
  const b64 = await page.evaluate((fill) => {
    const canvas = document.createElement('canvas');
    canvas.width = 1600;
    canvas.height = 1200;
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = fill;
    ctx.fillRect(0, 0, 1600, 1200);
    ctx.fillStyle = '#ffffff';
    ctx.beginPath();
    ctx.arc(800, 600, 400, 0, Math.PI * 2);
    ctx.fill();
    return canvas.toDataURL('image/jpeg', 0.9).split(',')[1];
  }, colour);
  return { name: 'IMG_2041.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(b64, 'base64') };
}

async function imageLoaded(locator) {
  await locator.waitFor();
  await locator.evaluate((img) => (img.complete ? null : new Promise((r) => img.addEventListener('load', r, { once: true }))));
  return locator.evaluate((img) => img.naturalWidth > 0);
}

test("a parent keeps the children's profiles and their meals", async () => {
  const desk = await openPage(browser, server.url);
  await desk.goto(`${server.url}/signup`);
  await desk.getByLabel('First name').fill('Amira');
  await desk.getByLabel('Last name').fill('Khan');
  await desk.getByLabel('Email').fill('amira@example.org');
  await desk.getByLabel('Password').fill('correct horse');
  await desk.getByRole('checkbox').check();
  await desk.getByRole('button', { name: 'Create Account' }).click();
  await desk.waitForURL(`${server.url}/dashboard`);
  await desk.getByText('No children added yet. Add your first child to start tracking meals!').waitFor();
  await desk.getByText('No recent meals tracked yet').waitFor();

  // Add a child with two allergies from the home screen's dialog.
  await desk.getByRole('button', { name: 'Add Child' }).click();
  const addDialog = desk.getByRole('dialog', { name: 'Add Child' });
  await addDialog.getByLabel('Name').fill('Emma');
  await addDialog.getByLabel('Age').fill('4');
  await addDialog.getByLabel('Dietary Restrictions', { exact: true }).fill('Vegetarian');
  await addDialog.getByLabel('Dietary Restrictions', { exact: true }).press('Enter');
  await addDialog.getByLabel('Allergies', { exact: true }).fill('Peanuts');
  await addDialog.getByLabel('Allergies', { exact: true }).press('Enter');
  await addDialog.getByLabel('Allergies', { exact: true }).fill('Milk');
  await addDialog.getByRole('button', { name: 'Add allergy' }).click();
  assert.deepEqual(await addDialog.getByRole('list', { name: 'Added allergies' }).getByRole('listitem').allTextContents(), ['Peanuts', 'Milk']);
  await screenshot(desk, 'add-child-dialog', { fullPage: false });
  await addDialog.getByRole('button', { name: 'Save' }).click();
  await addDialog.waitFor({ state: 'hidden' });
  const grid = desk.getByRole('list', { name: 'Your children' });
  await grid.getByText('Emma').waitFor();
  await grid.getByText('4 years old').waitFor();
  await screenshot(desk, 'dashboard-with-children');

  // A second child from the children page.
  await desk.goto(`${server.url}/children`);
  await desk.getByRole('button', { name: 'Add Child' }).click();
  await desk.getByLabel('Name').fill('Noah');
  await desk.getByRole('button', { name: 'Save', exact: true }).click();
  await desk.getByRole('heading', { name: 'Noah' }).waitFor();
  const emmaCard = desk.getByRole('listitem').filter({ has: desk.getByRole('heading', { name: 'Emma' }) });
  assert.deepEqual(await emmaCard.getByRole('list', { name: 'Allergies of Emma' }).getByRole('listitem').allTextContents(), ['Peanuts', 'Milk']);
  await emmaCard.getByText('4 years').waitFor();
  await screenshot(desk, 'children');

  // Record a meal with a photo from a phone, one-handed.
  const phone = await openPage(browser, server.url, PHONE);
  await phone.context().addCookies(await desk.context().cookies());
  await phone.goto(`${server.url}/meal-tracker`);
  await phone.getByRole('heading', { name: 'Meal Tracker' }).waitFor();
  const today = new Date().toLocaleDateString('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
  await phone.getByText(today).waitFor();
  await phone.getByText('No meals recorded yet').waitFor();
  await phone.getByRole('button', { name: 'Record Meal' }).click();
  const form = phone.getByRole('dialog', { name: 'Record Meal' });
  assert.equal(await form.getByLabel('Child').inputValue(), await form.getByLabel('Child').locator('option', { hasText: 'Emma' }).getAttribute('value'));
  // Save says what is missing instead of being disabled without a reason.
  await form.getByRole('button', { name: 'Save Meal' }).click();
  await form.getByText('Please choose a meal type').waitFor();
  await form.getByLabel('Meal type').selectOption('Lunch');
  await form.getByLabel('Foods', { exact: true }).fill('Pasta');
  await form.getByLabel('Foods', { exact: true }).press('Enter');
  await form.getByLabel('Foods', { exact: true }).fill('Peas');
  await form.getByLabel('Foods', { exact: true }).press('Enter');
  await form.getByLabel('Portion').selectOption('half');
  await form.getByLabel('Notes').fill('Ate slowly');
  await form.getByLabel('Photo').setInputFiles(await cameraPhoto(phone, '#e07b39'));
  await form.getByRole('img', { name: 'Selected photo' }).waitFor();
  await screenshot(phone, 'record-meal', { fullPage: false });
  await form.getByRole('button', { name: 'Save Meal' }).click();
  await phone.getByText('Meal recorded! 🍽️').waitFor();
  await form.waitFor({ state: 'hidden' });
  const card = phone.getByRole('article', { name: 'Lunch of Emma' });
  await card.waitFor();
  assert.ok(await imageLoaded(card.getByRole('img', { name: 'Photo of Pasta, Peas' })), 'the photo shows');
  assert.equal(await card.getByRole('img', { name: 'Loved it' }).textContent(), '😋');
  assert.deepEqual(await card.getByRole('list', { name: 'Foods' }).getByRole('listitem').allTextContents(), ['Pasta', 'Peas']);
  await card.getByText('Half portion').waitFor();
  await card.getByText('Parent Notes').waitFor();
  const photoUrl = await card.getByRole('link').getAttribute('href');

  // A second meal for Noah, without a photo.
  await phone.getByRole('button', { name: 'Record Meal' }).click();
  await form.getByLabel('Child').selectOption({ label: 'Noah' });
  await form.getByLabel('Meal type').selectOption('Dinner');
  await form.getByLabel('Foods', { exact: true }).fill('Rice');
  await form.getByRole('button', { name: 'Add food' }).click();
  await form.locator('label', { hasText: 'Disliked' }).click();
  assert.equal(await form.getByRole('radio', { name: /Disliked/ }).isChecked(), true);
  await form.getByRole('button', { name: 'Save Meal' }).click();
  await phone.getByRole('article', { name: 'Dinner of Noah' }).waitFor();
  await form.waitFor({ state: 'hidden' });
  await phone.waitForTimeout(400); // let the dialog's closing fade finish for a clean screenshot
  await screenshot(phone, 'meal-tracker');

  // Filter by child.
  await phone.getByRole('tab', { name: 'Noah' }).click();
  await phone.getByRole('article', { name: 'Lunch of Emma' }).waitFor({ state: 'detached' });
  await phone.getByRole('article', { name: 'Dinner of Noah' }).waitFor();
  assert.equal(await phone.getByRole('article').count(), 1);
  await phone.getByRole('tab', { name: 'Emma' }).click();
  await phone.getByRole('article', { name: 'Dinner of Noah' }).waitFor({ state: 'detached' });
  await phone.getByRole('article', { name: 'Lunch of Emma' }).waitFor();
  assert.equal(await phone.getByRole('article').count(), 1);
  await phone.getByRole('tab', { name: 'All Children' }).click();
  await phone.getByRole('article', { name: 'Dinner of Noah' }).waitFor();

  // Delete with confirmation; the photo goes too.
  await card.getByRole('button', { name: 'Meal actions' }).click();
  await card.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = phone.getByRole('dialog', { name: 'Delete meal' });
  await confirm.getByText('Are you sure you want to delete this meal? This action cannot be undone.').waitFor();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await phone.getByText('Meal deleted').waitFor();
  await card.waitFor({ state: 'detached' });
  assert.equal((await phone.request.get(`${server.url}${photoUrl}`)).status(), 404, 'the photo is deleted with the meal');
  assert.deepEqual(phone.foreign(), []);
  assert.deepEqual(phone.problems(), []);

  // Home shows the recent meal.
  await desk.goto(`${server.url}/dashboard`);
  await desk.getByRole('list', { name: 'Recent meals' }).getByText('Noah · Dinner').waitFor();

  // Edit and remove a child (its meals go with it).
  await desk.goto(`${server.url}/children`);
  const noahCard = desk.getByRole('listitem').filter({ has: desk.getByRole('heading', { name: 'Noah' }) });
  await noahCard.getByRole('button', { name: 'Edit' }).click();
  // The card turns into the form while editing.
  const editing = desk.getByRole('list', { name: 'Children' }).getByRole('listitem').filter({ has: desk.getByRole('button', { name: 'Save Changes' }) });
  assert.equal(await editing.getByLabel('Name').inputValue(), 'Noah');
  await editing.getByLabel('Name').fill('Noah James');
  await editing.getByLabel('Age').fill('2');
  await editing.getByRole('button', { name: 'Save Changes' }).click();
  await desk.getByText('Child updated').waitFor();
  const renamed = desk.getByRole('listitem').filter({ has: desk.getByRole('heading', { name: 'Noah James' }) });
  await renamed.getByText('2 years').waitFor();
  await renamed.getByRole('button', { name: 'Remove' }).click();
  await desk.getByText('Are you sure you want to remove Noah James? This action cannot be undone.').waitFor();
  await desk.getByRole('dialog', { name: 'Remove child' }).getByRole('button', { name: 'Remove' }).click();
  await desk.getByText('Child removed').waitFor();
  await desk.getByRole('heading', { name: 'Noah James' }).waitFor({ state: 'detached' });
  await desk.goto(`${server.url}/meal-tracker`);
  await desk.getByText('No meals recorded yet').waitFor();
  await screenshot(desk, 'meal-tracker-empty');

  // Change the profile picture.
  await phone.goto(`${server.url}/profile`);
  await phone.getByLabel('Profile picture').setInputFiles(await cameraPhoto(phone, '#3c8d5a'));
  await phone.getByText('Avatar updated').waitFor();
  assert.ok(await imageLoaded(phone.getByRole('img', { name: 'Profile picture' })));
  await screenshot(phone, 'profile-picture');
  assert.deepEqual(desk.problems(), []);
  await phone.context().close();
  await desk.context().close();
});
