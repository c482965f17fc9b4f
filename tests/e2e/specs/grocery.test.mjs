// Grocery lists on a phone, as a parent in a shop would use them: make a list in three
// categories, tick items, edit it, export it (the files' contents are checked) and open the
// print view; make a list from two saved recipes; two phones of one family see each other's
// ticks without reloading; a save over a list changed elsewhere keeps what was typed; ticks
// made offline wait as pending and reach the server when the connection returns.
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { after, before, test } from 'node:test';

import { PHONE, launch, openPage, screenshot } from '../lib/browser.mjs';
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

/** The parent's session cookies, after the first sign-up (sign-ins are rate limited). */
let cookies = null;

/** Another phone signed in as the parent (signing up first when asked). */
async function phone({ signUp = false } = {}) {
  const page = await openPage(browser, server.url, PHONE);
  if (cookies && !signUp) {
    await page.context().addCookies(cookies);
    return page;
  }
  await page.goto(`${server.url}/about`);
  const response = await page.request.post(`${server.url}/api/auth/signup`, { data: PARENT });
  assert.ok(response.ok(), await response.text());
  cookies = await page.context().cookies();
  return page;
}

/** The family's lists as the server has them now. */
async function serverLists(page) {
  const response = await page.request.get(`${server.url}/api/grocery-lists`);
  assert.equal(response.status(), 200);
  return response.json();
}

async function checkedOnServer(page, listName) {
  const list = (await serverLists(page)).find((l) => l.name === listName);
  return list.items.filter((i) => i.checked).map((i) => i.name).sort();
}

/** Opens /grocery-list and waits for the change feed, so other phones' changes arrive. */
async function openLists(page) {
  const stream = page.waitForResponse((r) => r.url() === `${server.url}/api/events` && r.status() === 200);
  await page.goto(`${server.url}/grocery-list`);
  await page.getByRole('heading', { name: 'Grocery Lists' }).waitFor();
  await stream;
}

async function addItem(dialog, name, quantity, category) {
  await dialog.getByLabel('Item name').fill(name);
  await dialog.getByLabel('Quantity').fill(quantity);
  await dialog.getByLabel('Category').selectOption(category);
  await dialog.getByRole('button', { name: 'Add item' }).click();
}

function card(page, name) {
  return page.getByRole('article', { name });
}

/** The checkbox of an item on a card. */
function itemBox(page, list, item) {
  return card(page, list).getByRole('checkbox', { name: new RegExp(`^${item}\\b`) });
}

/** Opens the export choices (a second press would close them). */
async function openExport(dialog) {
  const button = dialog.getByRole('button', { name: 'Export' });
  if ((await button.getAttribute('aria-expanded')) !== 'true') await button.click();
}

async function download(page, dialog, label) {
  await openExport(dialog);
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('link', { name: label }).click(),
  ]);
  return { name: file.suggestedFilename(), text: await readFile(await file.path(), 'utf8') };
}

test('a parent makes, ticks, edits, exports and prints a list on a phone', async () => {
  const page = await phone({ signUp: true });
  await openLists(page);
  await page.getByText('No grocery lists yet').waitFor();
  await page.getByRole('button', { name: 'Create First List' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Grocery List' });
  await dialog.getByLabel('List name').fill('Weekly shop');
  // An item needs a name.
  await dialog.getByRole('button', { name: 'Add item' }).click();
  await page.getByText('Please enter an item name').waitFor();
  await addItem(dialog, 'Bananas', '6', 'Produce');
  await addItem(dialog, 'Milk', '2 l', 'Dairy');
  await addItem(dialog, 'Bread', '', 'Bakery');
  await addItem(dialog, 'Apples', '1 kg', 'Produce');
  const produce = await dialog.getByRole('region', { name: 'Produce' }).getByRole('listitem').allInnerTexts();
  assert.equal(produce.length, 2);
  assert.match(produce[0], /Bananas\s*6/);
  assert.match(produce[1], /Apples\s*1 kg/);
  await dialog.getByText('4 items').waitFor();
  assert.match(await dialog.innerText(), /Estimated total: £\d+\.\d\d/);
  await screenshot(page, 'grocery-create', { fullPage: false });
  await dialog.getByRole('button', { name: 'Save List' }).click();
  await page.getByText('Grocery list created successfully').waitFor();
  await dialog.waitFor({ state: 'hidden' });

  const list = card(page, 'Weekly shop');
  await list.getByText('0 of 4 items checked').waitFor();
  // Bread got the default quantity.
  assert.match(await list.innerText(), /Bread\s*1/);
  await itemBox(page, 'Weekly shop', 'Bananas').check();
  await itemBox(page, 'Weekly shop', 'Milk').check();
  await list.getByText('2 of 4 items checked').waitFor();
  const checkedSection = page.getByRole('region', { name: 'Checked Items, Weekly shop' });
  await checkedSection.getByText('Bananas').waitFor();
  await expectEventually(async () =>
    assert.deepEqual(await checkedOnServer(page, 'Weekly shop'), ['Bananas', 'Milk']),
  );
  // Unticking moves it back.
  await itemBox(page, 'Weekly shop', 'Milk').uncheck();
  await list.getByText('1 of 4 items checked').waitFor();
  await screenshot(page, 'grocery-lists');

  await page.getByRole('button', { name: 'Edit Weekly shop' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit Grocery List' });
  assert.equal(await edit.getByLabel('List name').inputValue(), 'Weekly shop');
  await addItem(edit, 'Eggs', '12', 'Dairy');
  await edit.getByRole('button', { name: 'Remove Apples' }).click();
  await edit.getByText('4 items').waitFor();
  await edit.getByRole('button', { name: 'Save List' }).click();
  await page.getByText('Grocery list updated successfully').waitFor();
  await list.getByText('1 of 4 items checked').waitFor();
  assert.match(await list.innerText(), /Eggs/);
  assert.doesNotMatch(await list.innerText(), /Apples/);

  // Export: real files, grouped by category, with the ticks.
  await page.getByRole('button', { name: 'Edit Weekly shop' }).click();
  const txt = await download(page, edit, 'Text (.txt)');
  assert.match(txt.name, /\.txt$/);
  assert.match(txt.text, /^Weekly shop\n/);
  assert.match(txt.text, /\nProduce\n\[x\] Bananas \(6\)\n/);
  assert.match(txt.text, /\nDairy\n\[ \] Milk \(2 l\)\n\[ \] Eggs \(12\)\n/);
  await page.getByText('Your grocery list has been exported').waitFor();
  const csv = await download(page, edit, 'Spreadsheet (.csv)');
  assert.match(csv.name, /\.csv$/);
  const rows = csv.text.trim().split(/\r?\n/);
  assert.equal(rows.length, 5, csv.text);
  assert.equal(rows[0], '"Category","Item","Quantity","Checked"');
  assert.ok(rows.some((r) => r.includes('Bananas') && r.includes('Produce')), csv.text);
  const md = await download(page, edit, 'Markdown (.md)');
  assert.match(md.text, /^# Weekly shop\n/);
  assert.match(md.text, /- \[x\] Bananas/);

  // The print view opens in its own tab.
  await openExport(edit);
  const [printView] = await Promise.all([
    page.context().waitForEvent('page'),
    edit.getByRole('link', { name: 'Print view' }).click(),
  ]);
  await printView.getByRole('heading', { name: 'Weekly shop' }).waitFor();
  await printView.getByRole('heading', { name: 'Bakery' }).waitFor();
  assert.match(await printView.locator('main').innerText(), /☑\s*Bananas/);
  await printView.close();
  await edit.getByRole('button', { name: 'Cancel' }).click();

  // Delete asks first.
  await page.getByRole('button', { name: 'Delete Weekly shop' }).click();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await page.getByText('Grocery list deleted').waitFor();
  await page.getByText('No grocery lists yet').waitFor();
  assert.deepEqual(page.problems(), []);
  assert.deepEqual(page.foreign(), []);
  await page.context().close();
});

test('a typed item gets the category a shopper expects, and the dialog estimates as the card', async () => {
  const page = await phone();
  await openLists(page);
  await page.getByRole('button', { name: 'New List' }).click();
  const dialog = page.getByRole('dialog', { name: 'Create Grocery List' });
  await dialog.getByLabel('List name').fill('Corner shop');
  // Export waits for a saved list, and says so on screen.
  await dialog.getByText('Export works once the list is saved.').waitFor();
  const suggested = async (name, category) => {
    await dialog.getByLabel('Item name').fill(name);
    await expectEventually(async () => assert.equal(await dialog.getByLabel('Category').inputValue(), category));
    await dialog.getByRole('button', { name: 'Add item' }).click();
  };
  await suggested('cheese', 'Dairy');
  await suggested('nappies', 'Baby');
  await suggested('bagels', 'Bakery');
  await dialog.getByLabel('Item name').fill('Eggs');
  await dialog.getByLabel('Quantity').fill('6');
  await dialog.getByRole('button', { name: 'Add item' }).click();
  // The parent can still choose: a chosen category is kept.
  await dialog.getByLabel('Item name').fill('milk');
  await dialog.getByLabel('Category').selectOption('Beverages');
  await dialog.getByRole('button', { name: 'Add item' }).click();
  await dialog.getByRole('region', { name: 'Beverages' }).getByText('milk').waitFor();
  await dialog.getByRole('region', { name: 'Baby' }).getByText('nappies').waitFor();
  // The dialog's estimate, once the server has priced what is known (the eggs), is the card's.
  let shown = '';
  await expectEventually(async () => {
    // One read for both: the total changes when the pricing arrives.
    const text = await dialog.innerText();
    assert.match(text, /1 priced from the catalogue/);
    shown = text.match(/Estimated total: (£\d+\.\d\d)/)?.[1] ?? '';
  });
  await dialog.getByRole('button', { name: 'Save List' }).click();
  await page.getByText('Grocery list created successfully').waitFor();
  assert.match(await card(page, 'Corner shop').innerText(), new RegExp(`Est\\. ${shown.replace('.', '\\.')}`));
  await page.context().close();
});

test('a list made from two saved recipes merges their ingredients', async () => {
  const page = await phone();
  const api = `${server.url}/api`;
  for (const [title, ingredients] of [
    ['Pasta bake', [{ name: 'Penne', quantity: '200 g' }, { name: 'Cheddar cheese', quantity: '100 g' }]],
    ['Cheese toastie', [{ name: 'Bread', quantity: '2 slices' }, { name: 'cheddar cheese', quantity: '50 g' }]],
  ]) {
    const r = await page.request.post(`${api}/recipes`, {
      data: { source: 'own', title, description: '', ingredients, instructions: ['Cook it.'], preparationTime: 10 },
    });
    assert.equal(r.status(), 201, await r.text());
  }
  await openLists(page);
  const panel = page.getByRole('region', { name: 'Generate from Recipes' });
  const generate = panel.getByRole('button', { name: 'Generate List from Selected Recipes' });
  assert.ok(await generate.isDisabled());
  await panel.getByLabel('Pasta bake').check();
  assert.ok(await generate.isEnabled());
  await panel.getByLabel('Cheese toastie').check();
  await generate.click();
  const dialog = page.getByRole('dialog', { name: 'Create Grocery List' });
  assert.equal(await dialog.getByLabel('List name').inputValue(), 'List from 2 recipe(s)');
  await dialog.getByText('3 items').waitFor();
  assert.match(await dialog.getByRole('region', { name: 'Dairy' }).innerText(), /Cheddar cheese\s*150 g/);
  await dialog.getByRole('button', { name: 'Save List' }).click();
  await page.getByText('Grocery list created successfully').waitFor();
  await card(page, 'List from 2 recipe(s)').getByText('0 of 3 items checked').waitFor();
  const saved = (await serverLists(page)).find((l) => l.name === 'List from 2 recipe(s)');
  assert.deepEqual(saved.items.map((i) => i.name).sort(), ['Bread', 'Cheddar cheese', 'Penne']);
  assert.deepEqual(page.problems(), []);
  await page.context().close();
});

test('two phones of one family share ticks live; a stale save keeps what was typed', async () => {
  const a = await phone();
  const b = await phone();
  const created = await a.request.post(`${server.url}/api/grocery-lists`, {
    data: {
      name: 'Shared shop',
      items: ['Milk', 'Bread', 'Apples', 'Rice', 'Soap'].map((name) => ({ name, quantity: '1', category: 'Other' })),
    },
  });
  assert.equal(created.status(), 201);
  await openLists(a);
  await openLists(b);

  await itemBox(a, 'Shared shop', 'Milk').check();
  await expectEventually(async () => assert.ok(await itemBox(b, 'Shared shop', 'Milk').isChecked()), 2_000);
  await itemBox(b, 'Shared shop', 'Bread').check();
  await expectEventually(async () => assert.ok(await itemBox(a, 'Shared shop', 'Bread').isChecked()), 2_000);
  await card(a, 'Shared shop').getByText('2 of 5 items checked').waitFor();

  // A edits while B ticks in the shop: A's save is refused, nothing typed is lost, and saving
  // again keeps B's tick.
  await a.getByRole('button', { name: 'Edit Shared shop' }).click();
  const edit = a.getByRole('dialog', { name: 'Edit Grocery List' });
  await addItem(edit, 'Butter', '250 g', 'Dairy');
  await edit.getByLabel('List name').fill('Shared shop, Saturday');
  await itemBox(b, 'Shared shop', 'Apples').check();
  await expectEventually(async () =>
    assert.deepEqual(await checkedOnServer(b, 'Shared shop'), ['Apples', 'Bread', 'Milk']),
  );
  // ...and adds tea and drops the soap (a whole-list save from B's phone).
  const before = (await serverLists(b)).find((l) => l.name === 'Shared shop');
  const changed = await b.request.put(`${server.url}/api/grocery-lists/${before.id}`, {
    data: {
      name: before.name,
      version: before.version,
      items: [
        ...before.items.filter((i) => i.name !== 'Soap'),
        { name: 'Tea', quantity: '80 bags', category: 'Beverages' },
      ],
    },
  });
  assert.equal(changed.status(), 200, await changed.text());
  await edit.getByRole('button', { name: 'Save List' }).click();
  await edit.getByText('This list was changed on another device. Saved now:').waitFor();
  assert.equal(await edit.getByLabel('List name').inputValue(), 'Shared shop, Saturday');
  await edit.getByText('Butter').waitFor();
  assert.ok(await edit.getByLabel('Apples checked').isChecked(), "B's tick is taken into the form");
  await edit.getByRole('region', { name: 'Beverages' }).getByText('Tea').waitFor();
  assert.equal(await edit.getByRole('list').getByText('Soap').count(), 0, "B's removal is taken into the form");
  await screenshot(a, 'grocery-conflict', { fullPage: false });
  await edit.getByRole('button', { name: 'Save List' }).click();
  await a.getByText('Grocery list updated successfully').waitFor();
  const saved = (await serverLists(a)).find((l) => l.name === 'Shared shop, Saturday');
  assert.ok(saved, 'saved under the typed name');
  assert.deepEqual(saved.items.filter((i) => i.checked).map((i) => i.name).sort(), ['Apples', 'Bread', 'Milk']);
  assert.deepEqual(saved.items.map((i) => i.name).sort(), ['Apples', 'Bread', 'Butter', 'Milk', 'Rice', 'Tea']);
  await card(b, 'Shared shop, Saturday').getByText('Butter').waitFor();
  assert.deepEqual(a.problems().filter((p) => !p.includes('409')), []);
  await a.context().close();
  await b.context().close();
});

test('ticks made offline wait as pending and reach the server when the phone is back online', async () => {
  const a = await phone();
  const b = await phone();
  const created = await a.request.post(`${server.url}/api/grocery-lists`, {
    data: {
      name: 'Offline shop',
      items: ['Carrots', 'Peas', 'Pasta', 'Yoghurt'].map((name) => ({ name, quantity: '1', category: 'Other' })),
    },
  });
  assert.equal(created.status(), 201);
  const yoghurt = (await created.json()).items.find((i) => i.name === 'Yoghurt');
  await openLists(a);
  // The service worker installs on the first visit; from the next load on it serves the app
  // shell and keeps the lists it fetched.
  await a.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await openLists(a);
  assert.ok(await a.evaluate(() => Boolean(navigator.serviceWorker.controller)), 'the worker controls the page');

  await a.context().setOffline(true);
  await a.waitForFunction(() => navigator.onLine === false);
  await itemBox(a, 'Offline shop', 'Carrots').check();
  await itemBox(a, 'Offline shop', 'Peas').check();
  await a.getByText('You are offline.', { exact: false }).waitFor();
  // The app opens with no connection at all, with the list and the ticks waiting.
  await a.reload();
  await card(a, 'Offline shop').getByText('2 of 4 items checked').waitFor();
  await itemBox(a, 'Offline shop', 'Pasta').check();
  await itemBox(a, 'Offline shop', 'Yoghurt').check();
  await expectEventually(async () =>
    assert.equal(await card(a, 'Offline shop').getByText('Pending').count(), 4),
  );
  await card(a, 'Offline shop').getByText('4 of 4 items checked').waitFor();
  await screenshot(a, 'grocery-offline');
  assert.deepEqual(await checkedOnServer(b, 'Offline shop'), [], 'nothing reached the server yet');
  // Meanwhile, at home, the other parent unticks the yoghurt later than the offline tick.
  await new Promise((r) => setTimeout(r, 50));
  const later = await b.request.patch(`${server.url}/api/grocery-lists/${(await created.json()).id}/items/${yoghurt.id}`, {
    data: { checked: false },
  });
  assert.equal(later.status(), 200);

  await a.context().setOffline(false);
  await expectEventually(async () =>
    assert.deepEqual(await checkedOnServer(b, 'Offline shop'), ['Carrots', 'Pasta', 'Peas']),
  10_000);
  // The later untick won for that one item, and the parent is told.
  await a.getByText('Changed on another device').waitFor();
  await expectEventually(async () => assert.equal(await card(a, 'Offline shop').getByText('Pending').count(), 0));
  await card(a, 'Offline shop').getByText('3 of 4 items checked').waitFor();
  await a.context().close();
  await b.context().close();
});

test('a tick the server refuses is rolled back with a toast', async () => {
  const a = await phone();
  const created = await a.request.post(`${server.url}/api/grocery-lists`, {
    data: { name: 'Refused shop', items: ['Oats', 'Honey'].map((name) => ({ name, quantity: '1', category: 'Other' })) },
  });
  const list = await created.json();
  // This phone hears nothing of the change below, so it still shows the honey.
  await a.route('**/api/events', (route) => route.abort());
  await a.goto(`${server.url}/grocery-list`);
  await card(a, 'Refused shop').getByText('0 of 2 items checked').waitFor();
  const removed = await a.request.put(`${server.url}/api/grocery-lists/${list.id}`, {
    data: { name: 'Refused shop', items: [list.items[0]], version: list.version },
  });
  assert.equal(removed.status(), 200, await removed.text());

  // click, not check: the tick does not stay.
  await itemBox(a, 'Refused shop', 'Honey').click();
  await a.getByText('Update error').waitFor();
  assert.equal(await a.getByText('Update error').count(), 1, 'the tick was sent once');
  await a.getByText('That item is no longer on the list.').waitFor();
  // Rolled back to what the server has: the honey is gone, nothing is checked.
  await card(a, 'Refused shop').getByText('0 of 1 items checked').waitFor();
  await a.context().close();
});

test('the app installs: a manifest with icons, and a service worker', async () => {
  const page = await openPage(browser, server.url, PHONE);
  await page.goto(`${server.url}/`);
  const href = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = await (await page.request.get(new URL(href, server.url).href)).json();
  assert.equal(manifest.name, 'Highchair');
  assert.equal(manifest.display, 'standalone');
  assert.equal(manifest.start_url, '/');
  const sizes = manifest.icons.map((i) => i.sizes);
  assert.ok(sizes.includes('192x192') && sizes.includes('512x512'), sizes.join());
  assert.ok(manifest.icons.some((i) => i.purpose === 'maskable'));
  for (const icon of manifest.icons) {
    const r = await page.request.get(new URL(icon.src, server.url).href);
    assert.equal(r.status(), 200, icon.src);
    assert.equal(r.headers()['content-type'], 'image/png');
  }
  const worker = await page.request.get(`${server.url}/sw.js`);
  assert.equal(worker.status(), 200);
  assert.match(worker.headers()['cache-control'], /no-cache/);
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  // With the worker in control, the app's screens still open from it, and a path that is no
  // screen reaches the server, which logs it (issue 26: it never did once the worker was there).
  await page.reload();
  assert.ok(await page.evaluate(() => Boolean(navigator.serviceWorker.controller)), 'the worker controls the page');
  await page.goto(`${server.url}/no-such-shelf`);
  await page.getByText('Oops! Page not found').waitFor();
  await expectEventually(async () => assert.match(server.logs(), /page not found.*\/no-such-shelf|\/no-such-shelf.*page not found/));
  await page.context().close();
});
