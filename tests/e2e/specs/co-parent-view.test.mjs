// The co-parent's side: the owner invites from the header and copies the link; a phone opens
// it, enters the PIN the parent shared, then chooses their own (New PIN / Repeat new PIN, the
// strength texts), sees the children's meals with their photos and this week's plan, ticks a
// grocery item the owner sees, and follows the owner's new meal live; removing the co-parent
// ends the view. A link without its PIN opens nothing; the header offers a co-parent nothing of
// an owner's. Three wrong PINs show the blocked state (and the server keeps the link waiting
// after a reload); Logout ends the session; a pasted PIN fills all six boxes; Reset PIN asks
// first and signs the co-parent out.
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

async function post(request, path, body) {
  const r = await request.post(`${server.url}${path}`, { data: body });
  assert.ok(r.ok(), `${path}: ${r.status()} ${await r.text()}`);
  return r.status() === 204 ? null : r.json();
}

/** The owner, signed up once; later pages reuse the cookies (sign-ins are rate limited). */
let cookies = null;
async function owner() {
  const page = await openPage(browser, server.url, DESKTOP);
  const context = page.context();
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  if (cookies) {
    await context.addCookies(cookies);
    return page;
  }
  await page.goto(`${server.url}/about`);
  await post(page.request, '/api/auth/signup', PARENT);
  cookies = await context.cookies();
  return page;
}

/** A JPEG drawn by the browser. */
async function photo(page) {
  const b64 = await page.evaluate(() => {
    const c = document.createElement('canvas');
    c.width = 64;
    c.height = 48;
    const g = c.getContext('2d');
    g.fillStyle = '#c33';
    g.fillRect(0, 0, 32, 48);
    g.fillStyle = '#3c3';
    g.fillRect(32, 0, 32, 48);
    return c.toDataURL('image/jpeg').split(',')[1];
  });
  return { name: 'tea.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(b64, 'base64') };
}

/** Types a PIN into the six boxes of `group` the way a thumb does. */
async function typePin(page, group, pin) {
  await group.getByRole('textbox').first().click();
  await page.keyboard.type(pin);
}

const pinGroup = (page, name) => page.getByRole('group', { name, exact: true });

test('a co-parent opens the link on a phone, sets a PIN, sees the meals and ticks an item', async () => {
  const desk = await owner();
  const { request } = desk;
  const ada = await post(request, '/api/children', { name: 'Ada', age: 3 });
  const media = await request.post(`${server.url}/api/media`, { multipart: { file: await photo(desk) } });
  assert.ok(media.ok(), await media.text());
  await post(request, '/api/meals', { childId: ada.id, mealType: 'Lunch', foods: ['Pasta', 'Peas'], notes: 'Ate slowly', photo: (await media.json()).id });
  await post(request, '/api/meals', { childId: ada.id, mealType: 'Breakfast', foods: ['Porridge'], mood: 'neutral' });
  const list = await post(request, '/api/grocery-lists', {
    name: 'Weekly shop',
    items: [{ name: 'Milk', quantity: '2 l', category: 'Dairy' }, { name: 'Bread', quantity: '1', category: 'Bakery' }],
  });

  // The owner invites from the header and copies the link.
  await desk.goto(`${server.url}/grocery-list`);
  await desk.getByRole('banner').getByRole('button', { name: 'Co-Parents' }).click();
  const dialog = desk.getByRole('dialog', { name: 'Co-Parent Access' });
  await dialog.getByLabel('Name').fill('Grandma Zoë');
  await dialog.getByLabel('Email').fill('zoe@example.org');
  await dialog.getByRole('button', { name: 'Send Invite' }).click();
  const shown = dialog.getByRole('region', { name: 'Grandma Zoë has been invited as a co-parent' });
  const sharedPin = (await shown.locator('dd.font-mono').innerText()).trim();
  assert.match(sharedPin, /^\d{6}$/);
  await shown.getByRole('button', { name: 'Copy Link' }).click();
  await desk.getByText('Link copied', { exact: true }).waitFor();
  const link = await desk.evaluate(() => navigator.clipboard.readText());
  assert.match(link, /\/co-parent\/accept\/[0-9a-f-]{36}$/);
  await desk.keyboard.press('Escape');

  // The phone opens it: the link alone opens nothing, and choosing a PIN is not offered yet.
  const phone = await openPage(browser, server.url, PHONE);
  await phone.goto(link);
  await phone.getByRole('heading', { name: 'Enter your PIN' }).waitFor();
  await phone.getByText('Hello Grandma Zoë. Enter the 6-digit PIN the parent who invited you shared with you.').waitFor();
  const token = link.split('/').pop();
  const bare = await phone.request.post(`${server.url}/api/share/${token}/pin`, { data: { pin: '482913', confirmPin: '482913' } });
  assert.equal(bare.status(), 401, 'a link without its PIN chooses nothing');
  // Only what a co-parent can use: no owner links, no Log In or Sign Up, no side menu.
  const banner = phone.getByRole('banner');
  for (const name of ['Meal Tracker', 'Recipes', 'Grocery List', 'Log In', 'Sign Up']) {
    assert.equal(await banner.getByRole('link', { name }).count(), 0, name);
  }
  assert.equal(await banner.getByRole('button').count(), 0, 'no menu button');
  await typePin(phone, pinGroup(phone, 'PIN'), sharedPin);
  await phone.getByRole('button', { name: 'Access Dashboard' }).click();

  // In: the co-parent may choose their own PIN.
  await phone.getByRole('heading', { name: 'Choose your own PIN' }).waitFor();
  const setPin = phone.getByRole('button', { name: 'Set PIN' });
  await typePin(phone, pinGroup(phone, 'New PIN'), '482913');
  await typePin(phone, pinGroup(phone, 'Repeat new PIN'), '482914');
  await setPin.click();
  await phone.getByRole('alert').getByText('PINs do not match').waitFor();
  for (const box of await pinGroup(phone, 'Repeat new PIN').getByRole('textbox').all()) {
    assert.equal(await box.getAttribute('inputmode'), 'numeric', 'the phone shows its number pad');
  }
  await pinGroup(phone, 'New PIN').getByRole('textbox').last().click();
  for (let i = 0; i < 6; i++) await phone.keyboard.press('Backspace');
  await typePin(phone, pinGroup(phone, 'New PIN'), '123456');
  await setPin.click();
  await phone.getByRole('alert').getByText('PIN cannot be a sequential pattern').waitFor();
  await pinGroup(phone, 'New PIN').getByRole('textbox').last().click();
  for (let i = 0; i < 6; i++) await phone.keyboard.press('Backspace');
  await typePin(phone, pinGroup(phone, 'New PIN'), '482913');
  await pinGroup(phone, 'Repeat new PIN').getByRole('textbox').last().click();
  for (let i = 0; i < 6; i++) await phone.keyboard.press('Backspace');
  await typePin(phone, pinGroup(phone, 'Repeat new PIN'), '482913');
  await screenshot(phone, 'co-parent-create-pin');
  await setPin.click();
  await phone.getByText('PIN set successfully', { exact: true }).waitFor();
  // The shared PIN no longer opens the link; the chosen one does.
  const old = await fetch(`${server.url}/api/share/${token}/session`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ pin: sharedPin }),
  });
  assert.equal(old.status, 401);

  // The dashboard: who, the children's meals grouped by day, the photo.
  await phone.getByRole('heading', { name: 'Viewing as: Grandma Zoë' }).waitFor();
  assert.match(phone.url(), /\/co-parent\/dashboard\/[0-9a-f-]{36}$/);
  const lunch = phone.getByRole('article', { name: 'Lunch of Ada' });
  await lunch.waitFor();
  assert.match(await lunch.innerText(), /Pasta[\s\S]*Peas[\s\S]*Ate slowly/);
  const photoLink = lunch.getByRole('link', { name: 'View photo' });
  const href = await photoLink.getAttribute('href');
  assert.match(href, /^\/api\/share\/[0-9a-f-]{36}\/media\//);
  const image = await phone.request.get(`${server.url}${href}`);
  assert.equal(image.status(), 200);
  assert.equal(image.headers()['content-type'], 'image/jpeg');
  await phone.getByRole('article', { name: 'Breakfast of Ada' }).getByText('No photo').waitFor();
  // Dates as the parent's screens write them (issue 26: the co-parent's were American).
  const today = await phone.evaluate(() =>
    new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' }).format(new Date()),
  );
  await phone.getByRole('heading', { name: today }).waitFor();
  const at = await phone.getByRole('article', { name: 'Lunch of Ada' }).innerText();
  assert.match(at, /· \d{2}:\d{2}\n/, 'a 24-hour time');
  await desk.goto(`${server.url}/meal-tracker`);
  await desk.getByText(today, { exact: true }).waitFor();
  const stream = desk.waitForResponse((r) => r.url() === `${server.url}/api/events` && r.status() === 200);
  await desk.goto(`${server.url}/grocery-list`);
  await desk.getByRole('article', { name: 'Weekly shop' }).waitFor();
  await stream;
  await screenshot(phone, 'co-parent-meals');

  // The owner records a meal: the phone shows it without a reload.
  await post(request, '/api/meals', { childId: ada.id, mealType: 'Dinner', foods: ['Fish pie'] });
  await phone.getByRole('article', { name: 'Dinner of Ada' }).waitFor({ timeout: 5000 });

  // Grocery List: ticking is the one thing a co-parent changes; nothing else is offered.
  await phone.getByRole('tab', { name: 'Grocery List' }).click();
  const card = phone.getByRole('article', { name: 'Weekly shop' });
  await card.waitFor();
  assert.equal(await card.getByRole('button', { name: 'Edit Weekly shop' }).count(), 0);
  assert.equal(await card.getByRole('button', { name: 'Delete Weekly shop' }).count(), 0);
  await card.getByRole('checkbox', { name: 'Milk' }).check();
  await card.getByText('1 of 2 items checked').waitFor();
  await screenshot(phone, 'co-parent-groceries');
  await expectEventually(async () => {
    const saved = await (await request.get(`${server.url}/api/grocery-lists/${list.id}`)).json();
    assert.deepEqual(saved.items.filter((i) => i.checked).map((i) => i.name), ['Milk']);
  });
  // ...and the owner's open grocery screen shows it live.
  await desk.getByRole('article', { name: 'Weekly shop' }).getByText('1 of 2 items checked').waitFor();

  // The owner removes the co-parent: the phone's view ends.
  await desk.getByRole('banner').getByRole('button', { name: 'Co-Parents' }).click();
  await dialog.getByRole('tab', { name: 'Manage' }).click();
  await dialog.getByRole('article', { name: 'Grandma Zoë' }).getByRole('button', { name: 'Remove' }).click();
  await desk.getByRole('dialog', { name: 'Remove co-parent?' }).getByRole('button', { name: 'Remove' }).click();
  await desk.getByText('Co-parent removed', { exact: true }).waitFor();
  await phone.getByText('Invalid or unauthorized access').waitFor({ timeout: 10_000 });
  const after = await phone.request.get(`${server.url}/api/share/${link.split('/').pop()}/grocery-lists`);
  assert.equal(after.status(), 404);

  assert.deepEqual(phone.foreign(), []);
  await phone.context().close();
  await desk.context().close();
});

test('three wrong PINs block the entry screen; the server still holds the link after a reload', async () => {
  const desk = await owner();
  const made = await post(desk.request, '/api/co-parents', { name: 'Robin Lee', email: 'robin@example.org' });
  const token = made.link.split('/').pop();
  const robin = await openPage(browser, server.url, PHONE);
  await robin.goto(`${server.url}/about`);
  await post(robin.request, `/api/share/${token}/session`, { pin: made.pin });
  await post(robin.request, `/api/share/${token}/pin`, { pin: '592817', confirmPin: '592817' });
  await robin.context().close();
  await desk.context().close();

  const phone = await openPage(browser, server.url, PHONE);
  await phone.goto(`${server.url}/co-parent/accept/${token}`);
  await phone.getByRole('heading', { name: 'Enter your PIN' }).waitFor();
  const access = phone.getByRole('button', { name: 'Access Dashboard' });
  for (const attempt of [1, 2]) {
    await typePin(phone, pinGroup(phone, 'PIN'), `10000${attempt}`);
    await access.click();
    await phone.getByText(`Invalid PIN. Please try again. (Attempt ${attempt} of 3)`).waitFor();
    assert.equal(await pinGroup(phone, 'PIN').getByRole('textbox').first().inputValue(), '', 'the input clears');
  }
  await typePin(phone, pinGroup(phone, 'PIN'), '100003');
  await access.click();
  await phone.getByText('Too many failed attempts. Please wait before trying again.').first().waitFor();
  await phone.getByText('Access blocked', { exact: true }).waitFor();
  assert.ok(await access.isDisabled());
  for (const box of await pinGroup(phone, 'PIN').getByRole('textbox').all()) assert.ok(await box.isDisabled());
  await screenshot(phone, 'co-parent-blocked');

  // A reload clears the screen, not the server: even the right PIN waits.
  await phone.reload();
  await typePin(phone, pinGroup(phone, 'PIN'), '592817');
  await access.click();
  await phone.getByText(/Please try again after/).first().waitFor();
  assert.ok(await access.isDisabled());
  await phone.context().close();
});

test('a pasted PIN fills the six boxes; Logout ends the session', async () => {
  const desk = await owner();
  const made = await post(desk.request, '/api/co-parents', { name: 'Sam Okafor', email: 'sam@example.org' });
  const token = made.link.split('/').pop();
  await desk.context().close();

  const phone = await openPage(browser, server.url, PHONE);
  await phone.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  // A link typed or scanned in capitals is the same link.
  await phone.goto(`${server.url}/co-parent/dashboard/${token.toUpperCase()}`);
  await phone.getByText('Your session has expired. Please enter your PIN again.').waitFor();
  await phone.getByRole('link', { name: 'Enter PIN' }).click();
  await phone.getByRole('heading', { name: 'Enter your PIN' }).waitFor();
  await phone.evaluate((pin) => navigator.clipboard.writeText(`${pin.slice(0, 2)} ${pin.slice(2, 4)} ${pin.slice(4)}`), made.pin);
  await pinGroup(phone, 'PIN').getByRole('textbox').first().click();
  await phone.keyboard.press('ControlOrMeta+V');
  const boxes = await pinGroup(phone, 'PIN').getByRole('textbox').all();
  assert.deepEqual(await Promise.all(boxes.map((b) => b.inputValue())), [...made.pin]);
  await phone.getByRole('button', { name: 'Access Dashboard' }).click();
  // Keeping the PIN the parent shared is a choice too.
  await phone.getByRole('button', { name: 'Keep the PIN I was given' }).click();
  await phone.getByRole('heading', { name: 'Viewing as: Sam Okafor' }).waitFor();
  await phone.getByRole('article', { name: 'Lunch of Ada' }).waitFor();

  await phone.getByRole('button', { name: 'Logout' }).click();
  await phone.getByRole('heading', { name: 'Enter your PIN' }).waitFor();
  const gone = await phone.request.get(`${server.url}/api/share/${token}/children`);
  assert.equal(gone.status(), 401, 'the server session has ended');
  await phone.goto(`${server.url}/co-parent/dashboard/${token}`);
  await phone.getByText('Your session has expired. Please enter your PIN again.').waitFor();
  await phone.context().close();
});

test('Reset PIN asks first, says the co-parent is signed out, and does so', async () => {
  const desk = await owner();
  const made = await post(desk.request, '/api/co-parents', { name: 'Kit Morgan', email: 'kit@example.org' });
  const token = made.link.split('/').pop();
  const phone = await openPage(browser, server.url, PHONE);
  await phone.goto(`${server.url}/about`);
  await post(phone.request, `/api/share/${token}/session`, { pin: made.pin });
  await phone.goto(`${server.url}/co-parent/dashboard/${token}`);
  await phone.getByRole('heading', { name: 'Viewing as: Kit Morgan' }).waitFor();

  await desk.goto(`${server.url}/dashboard`);
  await desk.getByRole('banner').getByRole('button', { name: 'Co-Parents' }).click();
  const dialog = desk.getByRole('dialog', { name: 'Co-Parent Access' });
  await dialog.getByRole('tab', { name: 'Manage' }).click();
  const card = dialog.getByRole('article', { name: 'Kit Morgan' });
  await card.getByRole('button', { name: 'Reset PIN' }).click();
  const confirm = desk.getByRole('dialog', { name: 'Reset PIN?' });
  assert.match(await confirm.innerText(), /Kit Morgan will be signed out on every device/);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  assert.equal((await (await phone.request.get(`${server.url}/api/share/${token}/session`)).status()), 200, 'nothing reset');
  await card.getByRole('button', { name: 'Reset PIN' }).click();
  await confirm.getByRole('button', { name: 'Reset PIN' }).click();
  await card.getByText('New PIN for Kit Morgan').waitFor();
  await phone.getByText('Your session has expired. Please enter your PIN again.').waitFor({ timeout: 10_000 });
  await phone.context().close();
  await desk.context().close();
});
