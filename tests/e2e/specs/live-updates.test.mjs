// Two tabs of one signed-in browser stay in step without reloading: a meal recorded in one
// shows in the other, and so does a child's new name. The change feed (/api/events) carries
// the news; each tab revalidates what it names. Signing out in one tab signs the other out.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { launch, openPage, openTab, screenshot, signUpInBrowser } from '../lib/browser.mjs';
import { startServer } from '../lib/server.mjs';

/** How soon the other tab must show a change (the spec of this feature). */
const LIVE_MS = 2_000;

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

/** Opens `path` and waits until the tab's change feed is connected (a 200 event stream). */
async function openLive(page, path) {
  const stream = page.waitForResponse(
    (r) => r.url() === `${server.url}/api/events` && r.status() === 200,
  );
  await page.goto(`${server.url}${path}`);
  const response = await stream;
  assert.match(response.headers()['content-type'] ?? '', /^text\/event-stream/);
}

/** Marks the document, so a test can tell that the tab was not reloaded. */
async function markDocument(page) {
  await page.evaluate(() => {
    window.__sameDocument = true;
  });
}

async function sameDocument(page) {
  return page.evaluate(() => window.__sameDocument === true);
}

/** Resolves with the time an API write to a path matching `path` was answered. */
function answered(page, method, path) {
  return page
    .waitForResponse((r) => r.request().method() === method && path.test(new URL(r.url()).pathname) && r.ok())
    .then(() => Date.now());
}

test('two tabs of one family follow each other without reloading', async () => {
  const a = await openPage(browser, server.url);
  await signUpInBrowser(a, server.url, {
    first: 'Amira',
    last: 'Khan',
    email: 'amira@example.org',
    password: 'correct horse',
  });

  await a.getByRole('button', { name: 'Add Child' }).click();
  const addDialog = a.getByRole('dialog', { name: 'Add Child' });
  await addDialog.getByLabel('Name').fill('Emma');
  await addDialog.getByRole('button', { name: 'Save' }).click();
  await addDialog.waitFor({ state: 'hidden' });
  await a.getByRole('list', { name: 'Your children' }).getByText('Emma').waitFor();

  // Two tabs of the same browser on the meal tracker, each with its change feed open.
  const b = await openTab(a, server.url);
  await openLive(a, '/meal-tracker');
  await openLive(b, '/meal-tracker');
  for (const page of [a, b]) {
    await page.getByText('No meals recorded yet').waitFor();
    await markDocument(page);
  }

  // A meal recorded in tab A shows in tab B.
  await a.getByRole('button', { name: 'Record Meal' }).click();
  const form = a.getByRole('dialog', { name: 'Record Meal' });
  await form.getByLabel('Meal type').selectOption('Lunch');
  await form.getByLabel('Foods', { exact: true }).fill('Pasta');
  await form.getByLabel('Foods', { exact: true }).press('Enter');
  const recorded = answered(a, 'POST', /^\/api\/meals$/);
  await form.getByRole('button', { name: 'Save Meal' }).click();
  const recordedAt = await recorded;
  await a.getByRole('article', { name: 'Lunch of Emma' }).waitFor();
  await b.getByRole('article', { name: 'Lunch of Emma' }).waitFor({ timeout: LIVE_MS });
  assert.ok(Date.now() - recordedAt < LIVE_MS, 'tab B shows the meal within 2 s');
  assert.equal(await b.getByText('No meals recorded yet').count(), 0);
  assert.ok(await sameDocument(b), 'tab B was not reloaded');
  await screenshot(b, 'live-meal-in-other-tab');

  // The child renamed in tab B shows in tab A: in the tabs and on the meal card.
  await openLive(b, '/children');
  const card = b.getByRole('listitem').filter({ has: b.getByRole('heading', { name: 'Emma' }) });
  await card.getByRole('button', { name: 'Edit' }).click();
  const editing = b
    .getByRole('list', { name: 'Children' })
    .getByRole('listitem')
    .filter({ has: b.getByRole('button', { name: 'Save Changes' }) });
  await editing.getByLabel('Name').fill('Emma Rose');
  const renamed = answered(b, 'PUT', /^\/api\/children\/[^/]+$/);
  await editing.getByRole('button', { name: 'Save Changes' }).click();
  const renamedAt = await renamed;
  await b.getByText('Child updated').waitFor();
  await a.getByRole('tab', { name: 'Emma Rose' }).waitFor({ timeout: LIVE_MS });
  await a.getByRole('article', { name: 'Lunch of Emma Rose' }).waitFor({ timeout: LIVE_MS });
  assert.ok(Date.now() - renamedAt < LIVE_MS, 'tab A shows the new name within 2 s');
  assert.ok(await sameDocument(a), 'tab A was not reloaded');
  await screenshot(a, 'live-child-name-in-other-tab');
  assert.deepEqual(a.problems(), []);
  assert.deepEqual(b.problems(), []);
  assert.deepEqual([...a.foreign(), ...b.foreign()], []);

  // Logging out in tab B ends the session for both: tab A's feed is refused on reconnect, and
  // tab A goes to the login page by itself.
  await b.getByRole('button', { name: 'Log Out' }).click();
  await b.waitForURL(`${server.url}/`);
  await a.waitForURL(`${server.url}/login`, { timeout: 15_000 });
  assert.ok(await sameDocument(a), 'tab A followed without a reload');
  await a.context().close();
});

