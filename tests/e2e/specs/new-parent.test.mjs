// What a new parent hit in their first days (issue 26), as they meet it: the sign-up page on a
// phone (a square terms box, toasts that leave Create Account uncovered, 'Welcome' rather than
// 'Welcome back'), a guest asking for more than ten children, the child form's birth month,
// the grocery Export menu at the foot of a phone's screen, one word and one emoji per mood in
// the food history, an unknown child's food history, the meal plan lined up with the header
// and generated recipes kept in view on a desktop.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { DESKTOP, PHONE, launch, openPage, screenshot } from '../lib/browser.mjs';
import { expectEventually } from '../lib/eventually.mjs';
import { startServer } from '../lib/server.mjs';

const PARENT = { firstName: 'Priya', lastName: 'Shah', email: 'priya@example.org', password: 'correct horse', role: 'mom', acceptTerms: true };

let server;
let browser;
/** The seeded parent's cookies (sign-ins are rate limited) and ids. */
const data = {};

async function post(request, path, body) {
  const r = await request.post(`${server.url}/api${path}`, { data: body });
  assert.ok(r.ok(), `${path}: ${r.status()} ${await r.text()}`);
  return r.status() === 204 ? null : r.json();
}

before(async () => {
  [server, browser] = await Promise.all([startServer(), launch()]);
  const page = await openPage(browser, server.url);
  await page.goto(`${server.url}/about`);
  await post(page.request, '/auth/signup', { ...PARENT, email: 'amira@example.org', firstName: 'Amira' });
  const emma = await post(page.request, '/children', { name: 'Emma', age: 2 });
  data.emma = emma.id;
  await post(page.request, '/meals', { childId: emma.id, mealType: 'Lunch', foods: ['Banana'], mood: 'happy' });
  await post(page.request, '/meals', { childId: emma.id, mealType: 'Dinner', foods: ['Broccoli'], mood: 'sad' });
  // The list to export is the oldest of four: the last card, at the foot of the page.
  const items = ['Milk', 'Bread', 'Eggs', 'Apples', 'Pasta', 'Rice', 'Peas', 'Cheese', 'Yoghurt', 'Butter', 'Carrots', 'Oats'];
  await post(page.request, '/grocery-lists', { name: 'Big shop', items: items.map((name) => ({ name, quantity: '1', category: 'Other' })) });
  for (const name of ['Party', 'Weekend', 'Top-up']) {
    await post(page.request, '/grocery-lists', { name, items: [{ name: 'Juice', quantity: '1', category: 'Beverages' }] });
  }
  data.cookies = await page.context().cookies();
  await page.context().close();
});

after(async () => {
  await browser?.close();
  await server?.stop();
});

/** A page signed in as the seeded parent. */
async function parentPage(viewport) {
  const page = await openPage(browser, server.url, viewport);
  await page.context().addCookies(data.cookies);
  return page;
}

const within = (box, viewport) =>
  box && box.x >= 0 && box.y >= 0 && box.x + box.width <= viewport.width && box.y + box.height <= viewport.height;

const overlap = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

describe('signing up and trying the app on a phone', () => {
  test('the terms box is square, a toast leaves Create Account uncovered, and a new account is welcomed', async () => {
    const page = await openPage(browser, server.url, PHONE);
    await page.goto(`${server.url}/signup`);
    const terms = page.getByRole('checkbox');
    const shape = await terms.evaluate((e) => ({ radius: parseFloat(getComputedStyle(e).borderTopLeftRadius), width: e.getBoundingClientRect().width }));
    assert.ok(shape.radius <= shape.width / 4, `a square box, not a circle: radius ${shape.radius}px on ${shape.width}px`);

    await page.getByLabel('First name').fill(PARENT.firstName);
    await page.getByLabel('Last name').fill(PARENT.lastName);
    await page.getByLabel('Email').fill(PARENT.email);
    await page.getByLabel('Password').fill(PARENT.password);
    // The button at the foot of the screen, where a thumb reaches it; the terms not ticked yet.
    const create = page.getByRole('button', { name: 'Create Account' });
    await create.evaluate((b) => b.scrollIntoView({ block: 'end' }));
    await create.click();
    const toast = page.getByRole('alert').filter({ hasText: 'Terms not accepted' });
    await toast.waitFor();
    await page.waitForTimeout(400); // the toast's slide-in
    const [toastBox, buttonBox] = [await toast.boundingBox(), await create.boundingBox()];
    assert.ok(!overlap(toastBox, buttonBox), `the toast (${JSON.stringify(toastBox)}) covers Create Account (${JSON.stringify(buttonBox)})`);
    await screenshot(page, 'signup-toast', { fullPage: false });

    await terms.check();
    await create.click();
    await page.waitForURL(`${server.url}/dashboard`);
    await page.getByRole('heading', { level: 1, name: `Welcome, ${PARENT.firstName}!` }).waitFor();

    // Signed out and in again: now it is a welcome back.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Log Out' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.goto(`${server.url}/login`);
    await page.getByLabel('Email').fill(PARENT.email);
    await page.getByLabel('Password').fill(PARENT.password);
    await page.getByRole('button', { name: 'Log In' }).click();
    await page.waitForURL(`${server.url}/dashboard`);
    await page.getByRole('heading', { level: 1, name: `Welcome back, ${PARENT.firstName}!` }).waitFor();
    assert.deepEqual(page.problems(), []);
    await page.context().close();
  });

  test('a guest asking for more than ten children is told ten is the most', async () => {
    const page = await openPage(browser, server.url, PHONE);
    await page.goto(`${server.url}/guest`);
    await page.getByLabel('First name').fill('Kai');
    await page.getByLabel('Number of children').fill('12');
    await page.getByRole('button', { name: 'Continue as Guest' }).click();
    await page.getByText('You can add at most 10 children as a guest.').waitFor();
    assert.equal(await page.getByLabel('Number of children').getAttribute('aria-invalid'), 'true');
    assert.equal(new URL(page.url()).pathname, '/guest', 'nothing is sent');
    await page.getByLabel('Number of children').fill('10');
    await page.getByRole('button', { name: 'Continue as Guest' }).click();
    await page.waitForURL(`${server.url}/dashboard`);
    await page.getByRole('heading', { level: 1, name: 'Welcome, Kai!' }).waitFor();
    await page.goto(`${server.url}/children`);
    await page.getByRole('heading', { name: 'Child 10' }).waitFor();
    await page.context().close();
  });

  test("the child form's birth month is a month and a year to choose, with an example", async () => {
    const page = await parentPage(PHONE);
    await page.goto(`${server.url}/children`);
    await page.getByRole('button', { name: 'Add Child' }).click();
    const month = page.getByRole('group', { name: 'Birth month (optional)' });
    await month.waitFor();
    assert.equal(await page.locator('input[type="month"]').count(), 0, 'no raw month input');
    assert.ok(await month.getByText('e.g. March 2025').isVisible(), 'an example');
    const year = String(new Date().getFullYear() - 1);
    await page.getByLabel('Name').fill('Noah');
    await month.getByLabel('Month').selectOption({ label: 'March' });
    await month.getByLabel('Year').selectOption(year);
    await screenshot(page, 'child-form-birth-month', { fullPage: false });
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('heading', { name: 'Noah' }).waitFor();
    const children = await (await page.request.get(`${server.url}/api/children`)).json();
    assert.equal(children.find((c) => c.name === 'Noah')?.birthMonth, `${year}-03`);
    await page.context().close();
  });
});

test("a list's Export menu at the foot of a phone's screen opens wholly on the screen", async () => {
  const page = await parentPage(PHONE);
  await page.goto(`${server.url}/grocery-list`);
  const card = page.getByRole('article', { name: 'Big shop' });
  await card.getByRole('button', { name: 'Edit Big shop' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit Grocery List' });
  const exportButton = dialog.getByRole('button', { name: 'Export' });
  // Scrolled so that Export is at the bottom edge of the sheet, as a thumb leaves it.
  await exportButton.evaluate((b) => b.scrollIntoView({ block: 'end' }));
  await exportButton.click();
  const choices = dialog.getByRole('group', { name: 'Export as' });
  for (const name of ['Text (.txt)', 'Spreadsheet (.csv)', 'Markdown (.md)', 'Print view']) {
    const link = choices.getByRole('link', { name });
    await expectEventually(async () => assert.ok(within(await link.boundingBox(), PHONE), `${name} is on the screen`));
  }
  await screenshot(page, 'grocery-export-menu', { fullPage: false });
  await page.context().close();
});

test('the food history says how each food went in the meal cards’ words; an unknown child is not found', async () => {
  const page = await parentPage(PHONE);
  await page.goto(`${server.url}/meal-tracker`);
  const cardMood = page.getByRole('article', { name: 'Lunch of Emma' }).getByRole('img', { name: 'Loved it' });
  // textContent: a card below the fold is content-visibility skipped, and innerText reads ''.
  assert.equal(await cardMood.textContent(), '😋');

  await page.goto(`${server.url}/children/${data.emma}/foods`);
  const foods = page.getByRole('list', { name: 'Foods' });
  const banana = foods.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Banana' }) });
  const broccoli = foods.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Broccoli' }) });
  assert.equal(await banana.getByRole('img', { name: 'Loved it' }).innerText(), '😋');
  assert.equal(await broccoli.getByRole('img', { name: 'Disliked' }).innerText(), '😞');
  assert.ok(await banana.getByText('· Loved it').isVisible());

  for (const id of ['4b0f3c1e-8d1a-4c1e-9a3b-2f6d7e8a9b0c', 'no-such-child']) {
    await page.goto(`${server.url}/children/${id}/foods`);
    await page.getByRole('heading', { level: 1, name: 'Child not found' }).waitFor();
    await page.getByRole('link', { name: 'Back to Children' }).click();
    await page.waitForURL(`${server.url}/children`);
  }
  assert.deepEqual(page.problems(), [], 'no uncaught error in the page');
  await page.context().close();
});

describe('on a desktop', () => {
  test('the meal plan lines up with the header', async () => {
    const page = await parentPage(DESKTOP);
    await page.goto(`${server.url}/meal-plan`);
    const h1 = await page.getByRole('heading', { level: 1, name: 'Meal Plan' }).boundingBox();
    const logo = await page.getByRole('link', { name: 'Highchair home' }).boundingBox();
    assert.ok(Math.abs(h1.x - logo.x) <= 1, `the page starts at ${h1.x}px, the header at ${logo.x}px`);
    const week = await page.getByRole('region', { name: /^Sunday/ }).boundingBox();
    const logOut = await page.getByRole('banner').getByRole('button', { name: 'Log Out' }).boundingBox();
    assert.ok(Math.abs(week.x + week.width - (logOut.x + logOut.width)) <= 1, 'and ends where the header ends');
    await page.context().close();
  });

  test('generated recipes stay in view', async () => {
    const page = await parentPage(DESKTOP);
    await page.goto(`${server.url}/recipes`);
    await page.getByRole('button', { name: 'Chicken breast' }).click();
    const generate = page.getByRole('button', { name: 'Generate Recipes' });
    await generate.scrollIntoViewIfNeeded();
    await generate.click();
    const option = page.getByText('Option 1 of 3');
    await option.waitFor();
    await expectEventually(async () => {
      const box = await option.boundingBox();
      assert.ok(box.y >= 0 && box.y + box.height <= DESKTOP.height, `the results are at ${Math.round(box.y)}px`);
    });
    await screenshot(page, 'recipes-generated', { fullPage: false });
    await page.context().close();
  });
});
