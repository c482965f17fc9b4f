// The co-parent's side: the owner invites from the header and copies the link; a phone opens
// it, chooses a PIN (two entries, the strength texts), sees the children's meals with their
// photos and this week's plan, ticks a grocery item the owner sees, and follows the owner's new
// meal live; removing the co-parent ends the view. Three wrong PINs show the blocked state (and
// the server keeps the link waiting after a reload); Logout ends the session; a pasted PIN
// fills all six boxes.
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
  await shown.getByRole('button', { name: 'Copy Link' }).click();
  await desk.getByText('Link copied', { exact: true }).waitFor();
  const link = await desk.evaluate(() => navigator.clipboard.readText());
  assert.match(link, /\/co-parent\/accept\/[0-9a-f-]{36}$/);
  await desk.keyboard.press('Escape');

  // The phone opens it and chooses a PIN.
  const phone = await openPage(browser, server.url, PHONE);
  await phone.goto(link);
  await phone.getByRole('heading', { name: 'Create your PIN' }).waitFor();
  await phone.getByText('Hello Grandma Zoë', { exact: false }).waitFor();
  const setPin = phone.getByRole('button', { name: 'Set PIN' });
  await typePin(phone, pinGroup(phone, 'PIN'), '482913');
  await typePin(phone, pinGroup(phone, 'Confirm PIN'), '482914');
  await setPin.click();
  await phone.getByRole('alert').getByText('PINs do not match').waitFor();
  for (const box of await pinGroup(phone, 'Confirm PIN').getByRole('textbox').all()) {
    assert.equal(await box.getAttribute('inputmode'), 'numeric', 'the phone shows its number pad');
  }
  await pinGroup(phone, 'PIN').getByRole('textbox').last().click();
  for (let i = 0; i < 6; i++) await phone.keyboard.press('Backspace');
  await typePin(phone, pinGroup(phone, 'PIN'), '123456');
  await setPin.click();
  await phone.getByRole('alert').getByText('PIN cannot be a sequential pattern').waitFor();
  await pinGroup(phone, 'PIN').getByRole('textbox').last().click();
  for (let i = 0; i < 6; i++) await phone.keyboard.press('Backspace');
  await typePin(phone, pinGroup(phone, 'PIN'), '482913');
  await pinGroup(phone, 'Confirm PIN').getByRole('textbox').last().click();
  for (let i = 0; i < 6; i++) await phone.keyboard.press('Backspace');
  await typePin(phone, pinGroup(phone, 'Confirm PIN'), '482913');
  await screenshot(phone, 'co-parent-create-pin');
  await setPin.click();
  await phone.getByText('PIN set successfully', { exact: true }).waitFor();

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
  const today = new Date().toLocaleDateString('en-US', { weekday: 'long', year: 'numeric', month: 'long', day: 'numeric' });
  await phone.getByRole('heading', { name: today }).waitFor();
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
  await post(desk.request, `/api/share/${token}/pin`, { pin: '592817', confirmPin: '592817' });
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
  await phone.getByRole('heading', { name: 'Create your PIN' }).waitFor();
  await phone.evaluate(() => navigator.clipboard.writeText('73 92 64'));
  await pinGroup(phone, 'PIN').getByRole('textbox').first().click();
  await phone.keyboard.press('ControlOrMeta+V');
  const boxes = await pinGroup(phone, 'PIN').getByRole('textbox').all();
  assert.deepEqual(await Promise.all(boxes.map((b) => b.inputValue())), ['7', '3', '9', '2', '6', '4']);
  await pinGroup(phone, 'Confirm PIN').getByRole('textbox').first().click();
  await phone.keyboard.press('ControlOrMeta+V');
  await phone.getByRole('button', { name: 'Set PIN' }).click();
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
