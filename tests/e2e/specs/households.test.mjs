// Two parents, one family: Mum invites Dad from her profile page, Dad opens the link in his own
// browser and creates his account there, both see Emma, Mum sees Dad appear without reloading,
// and when Mum removes him, Dad's browser is signed out.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { PHONE, launch, openPage, screenshot, signUpInBrowser } from '../lib/browser.mjs';
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

test('a second parent joins by link, shares the children, and can be removed', async () => {
  const mum = await openPage(browser, server.url);
  await signUpInBrowser(mum, server.url, {
    first: 'Amira',
    last: 'Khan',
    email: 'amira@example.org',
    password: 'correct horse',
  });
  await mum.getByRole('button', { name: 'Add Child' }).click();
  const addDialog = mum.getByRole('dialog', { name: 'Add Child' });
  await addDialog.getByLabel('Name').fill('Emma');
  await addDialog.getByRole('button', { name: 'Save' }).click();
  await addDialog.waitFor({ state: 'hidden' });

  // The invite link is made on the profile page and shown once.
  const feed = mum.waitForResponse((r) => r.url() === `${server.url}/api/events` && r.status() === 200);
  await mum.goto(`${server.url}/profile`);
  await feed;
  const members = mum.getByRole('list', { name: 'Family members' });
  await members.getByText('Amira Khan (you)').waitFor();
  await mum.getByRole('button', { name: 'Invite a Parent' }).click();
  const link = await mum.getByLabel('Invite link').inputValue();
  assert.match(link, new RegExp(`^${server.url}/join/[0-9a-f-]{36}$`));
  await screenshot(mum, 'family-invite-link');

  // Dad, on his phone, has no account yet.
  const dad = await openPage(browser, server.url, PHONE);
  await dad.goto(link);
  await dad.getByRole('heading', { level: 1, name: 'Join The Khan family' }).waitFor();
  await dad.getByText('Amira Khan invited you').waitFor();
  await dad.getByLabel('First name').fill('Ben');
  await dad.getByLabel('Last name').fill('Khan');
  await dad.getByLabel('Email').fill('ben@example.org');
  await dad.getByLabel('Password').fill('battery staple');
  await dad.getByLabel('I am a').selectOption('dad');
  await dad.getByRole('checkbox').check();
  await screenshot(dad, 'family-join');
  await dad.getByRole('button', { name: 'Create Account and Join' }).click();
  await dad.waitForURL(`${server.url}/dashboard`);
  await dad.getByText('Welcome to the family').waitFor();
  await dad.goto(`${server.url}/children`);
  await dad.getByRole('heading', { name: 'Emma' }).waitFor();

  // Mum's open profile page lists Dad without a reload; the used link is gone.
  await members.getByText('Ben Khan').waitFor({ timeout: 2_000 });
  assert.equal(await mum.getByText('Open invite links').count(), 0);

  // The link worked once.
  const again = await openPage(browser, server.url);
  await again.goto(link);
  await again.getByRole('heading', { level: 1, name: 'Invite not found' }).waitFor();
  await again.context().close();

  // Mum removes Dad; his phone is signed out on its next request.
  const row = members.getByRole('listitem').filter({ hasText: 'Ben Khan' });
  await row.getByRole('button', { name: 'Remove' }).click();
  const confirm = mum.getByRole('dialog', { name: 'Remove from family?' });
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await mum.getByText('Removed from your family').waitFor();
  await members.getByText('Ben Khan').waitFor({ state: 'detached' });
  await dad.goto(`${server.url}/children`);
  await dad.waitForURL(`${server.url}/login`);

  // He signs in again and has a family of his own, with no children.
  await dad.getByLabel('Email').fill('ben@example.org');
  await dad.getByLabel('Password').fill('battery staple');
  await dad.getByRole('button', { name: 'Log In' }).click();
  await dad.waitForURL(`${server.url}/children`);
  await dad.getByRole('heading', { level: 1, name: 'Children' }).waitFor();
  assert.equal(await dad.getByRole('heading', { name: 'Emma' }).count(), 0);

  assert.deepEqual(mum.problems(), []);
  assert.deepEqual([...mum.foreign(), ...dad.foreign()], []);
});
