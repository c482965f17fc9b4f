// The owner's side of co-parents: a parent invites a co-parent from the header's Co-Parent
// Access dialog and sees the link and the PIN once; Manage shows the card (Pending, PIN Set,
// Expires <date>); Copy Link works through the clipboard and, where the clipboard API is missing
// (plain http on a LAN), shows the link selected; Reset PIN shows a new PIN; Remove asks first
// and the server's list is empty after; a co-parent invited elsewhere shows up through the change
// feed. The same on /co-parent on a phone.
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

const NAME_TEXT = 'Please enter a valid name (letters, spaces, hyphens, and apostrophes only)';
const EMAIL_TEXT = 'Please enter a valid email address';

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

/**
 * A browser signed in as the parent (signing up the first time). `clipboard`: the page may
 * read and write the clipboard; `noClipboardApi`: navigator.clipboard is missing, as on a page
 * served over plain http on a LAN.
 */
async function signedIn(viewport, { clipboard = true, noClipboardApi = false } = {}) {
  const page = await openPage(browser, server.url, viewport);
  const context = page.context();
  if (clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  if (noClipboardApi) {
    await context.addInitScript(() => {
      delete Navigator.prototype.clipboard;
    });
  }
  if (cookies) {
    await context.addCookies(cookies);
    return page;
  }
  await page.goto(`${server.url}/about`);
  const response = await page.request.post(`${server.url}/api/auth/signup`, { data: PARENT });
  assert.ok(response.ok(), await response.text());
  cookies = await context.cookies();
  return page;
}

/** The family's co-parents as the server has them now. */
async function serverCoParents(page) {
  const response = await page.request.get(`${server.url}/api/co-parents`);
  assert.equal(response.status(), 200, await response.text());
  return response.json();
}

/** A date as the card's badge shows it in the tests' en-GB browser: '20 May 2025'. */
const day = (iso) => new Intl.DateTimeFormat('en-GB', { month: 'short', day: 'numeric', year: 'numeric' }).format(new Date(iso));

/** The six-digit PIN shown in `box` (the invite's panel or a card). */
async function pinIn(box) {
  const match = (await box.innerText()).match(/\b(\d{6})\b/);
  assert.ok(match, `no PIN in: ${await box.innerText()}`);
  return match[1];
}

/** The badges of a co-parent's card. */
const badges = (page, name) => page.getByRole('list', { name: `Status of ${name}` }).getByRole('listitem').allInnerTexts();

const readClipboard = (page) => page.evaluate(() => navigator.clipboard.readText());

/** Problems other than the refusals these tests cause on purpose (a duplicate invite's 409). */
const problems = (page) => page.problems().filter((p) => !p.includes('status of 409 (Conflict)'));

test('a parent invites a co-parent from the header, copies the link, resets the PIN and removes them', async () => {
  const page = await signedIn(DESKTOP);
  await page.goto(`${server.url}/dashboard`);
  const opener = page.getByRole('banner').getByRole('button', { name: 'Co-Parents' });
  await opener.click();
  const dialog = page.getByRole('dialog', { name: 'Co-Parent Access' });
  await dialog.waitFor();
  assert.equal(await dialog.getByRole('tab', { name: 'Invite' }).getAttribute('aria-selected'), 'true');

  // Checked before anything is sent, with the spec's texts.
  await dialog.getByRole('button', { name: 'Send Invite' }).click();
  await dialog.getByText('Name is required').waitFor();
  await dialog.getByText('Email is required').waitFor();
  await page.getByText('Please provide both name and email').waitFor();
  await dialog.getByLabel('Name').fill('Jamie 2');
  await dialog.getByLabel('Email').fill('jamie@example');
  await dialog.getByRole('button', { name: 'Send Invite' }).click();
  await dialog.getByText(NAME_TEXT).waitFor();
  await dialog.getByText(EMAIL_TEXT).waitFor();
  await screenshot(page, 'co-parents-invite-errors', { fullPage: false });
  assert.deepEqual(await serverCoParents(page), []);

  // Invited: the toast, and the link and PIN shown this once.
  await dialog.getByLabel('Name').fill('Jamie Rivera');
  await dialog.getByLabel('Email').fill('jamie@example.org');
  await dialog.getByRole('button', { name: 'Send Invite' }).click();
  await page.getByText('Co-parent invited', { exact: true }).waitFor();
  const shown = dialog.getByRole('region', { name: 'Jamie Rivera has been invited as a co-parent' });
  await shown.waitFor();
  assert.match(await shown.innerText(), /securely/);
  const link = await shown.getByLabel('Co-parent link').inputValue();
  assert.match(link, new RegExp(`^${server.url}/co-parent/accept/[0-9a-f-]{36}$`));
  const firstPin = await pinIn(shown);
  const [made] = await serverCoParents(page);
  assert.equal(made.link, link);
  assert.equal(JSON.stringify(made).includes(firstPin), false, 'the PIN is not retrievable from the list');

  await shown.getByRole('button', { name: 'Copy Link' }).click();
  await page.getByText('Link copied', { exact: true }).waitFor();
  assert.equal(await readClipboard(page), link);
  await screenshot(page, 'co-parents-invited', { fullPage: false });

  // The same e-mail again: the server's text.
  await shown.getByRole('button', { name: 'Invite Another' }).click();
  await dialog.getByLabel('Name').fill('Jamie Rivera');
  await dialog.getByLabel('Email').fill('jamie@example.org');
  await dialog.getByRole('button', { name: 'Send Invite' }).click();
  await page.getByText('Error inviting co-parent', { exact: true }).waitFor();
  await page.getByText(/already invited as a co-parent/).waitFor();
  assert.equal((await serverCoParents(page)).length, 1);

  // Manage: the card, without the PIN.
  await dialog.getByRole('tab', { name: 'Manage' }).click();
  const card = dialog.getByRole('article', { name: 'Jamie Rivera' });
  await card.waitFor();
  assert.deepEqual(await badges(dialog, 'Jamie Rivera'), [`Expires: ${day(made.expiresAt)}`, 'Pending', 'PIN Set']);
  assert.match(await card.innerText(), /jamie@example\.org/);
  assert.doesNotMatch(await card.innerText(), new RegExp(firstPin));
  for (const label of ['Copy Link', 'Reset PIN', 'Remove']) await card.getByRole('button', { name: label }).waitFor();
  // A link with 7 days left needs no extending.
  assert.equal(await card.getByRole('button', { name: 'Extend link' }).count(), 0);

  await page.evaluate(() => navigator.clipboard.writeText('something else'));
  await card.getByRole('button', { name: 'Copy Link' }).click();
  await expectEventually(async () => assert.equal(await readClipboard(page), link));
  assert.equal(await card.getByLabel('Link for Jamie Rivera').count(), 0, 'no fallback field when the clipboard works');

  // Reset PIN: a new one, shown in the card until dismissed.
  await card.getByRole('button', { name: 'Reset PIN' }).click();
  // It asks first: the co-parent is signed out everywhere.
  await page.getByRole('dialog', { name: 'Reset PIN?' }).getByRole('button', { name: 'Reset PIN' }).click();
  await page.getByText('PIN generated', { exact: true }).waitFor();
  const newPinBox = card.getByRole('status');
  await newPinBox.waitFor();
  const secondPin = await pinIn(newPinBox);
  assert.notEqual(secondPin, firstPin);
  await page.getByText(new RegExp(`New PIN for Jamie Rivera: ${secondPin}\\. Share it securely`)).waitFor();
  await screenshot(page, 'co-parents-manage', { fullPage: false });
  await card.getByRole('button', { name: 'Dismiss new PIN' }).click();
  await newPinBox.waitFor({ state: 'detached' });

  // Remove asks first; the Co-Parent Access dialog stays open behind the question.
  await card.getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove co-parent?' });
  await confirm.getByText('Are you sure you want to remove this co-parent?', { exact: true }).waitFor();
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await confirm.waitFor({ state: 'hidden' });
  await dialog.waitFor();
  await card.getByRole('button', { name: 'Remove' }).click();
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await page.getByText('Co-parent removed', { exact: true }).waitFor();
  await dialog.getByText('No co-parents have been invited yet').waitFor();
  assert.ok(await dialog.isVisible(), 'the dialog is still open');
  assert.deepEqual(await serverCoParents(page), []);

  // Invite Now goes back to the Invite tab; Escape closes the dialog, focus back on its button.
  await dialog.getByRole('button', { name: 'Invite Now' }).click();
  assert.equal(await dialog.getByRole('tab', { name: 'Invite' }).getAttribute('aria-selected'), 'true');
  await page.keyboard.press('Escape');
  await dialog.waitFor({ state: 'hidden' });
  assert.ok(await opener.evaluate((el) => el === document.activeElement), 'focus is back on Co-Parents');

  assert.deepEqual(problems(page), []);
  assert.deepEqual(page.foreign(), []);
  await page.context().close();
});

test('without the clipboard API (plain http), Copy Link shows the link selected', async () => {
  const page = await signedIn(DESKTOP, { clipboard: false, noClipboardApi: true });
  const stream = page.waitForResponse((r) => r.url() === `${server.url}/api/events` && r.status() === 200);
  await page.goto(`${server.url}/dashboard`);
  await stream;
  assert.equal(await page.evaluate(() => typeof navigator.clipboard), 'undefined');
  const invited = await page.request.post(`${server.url}/api/co-parents`, { data: { name: 'Sam Okafor', email: 'sam@example.org' } });
  assert.equal(invited.status(), 201, await invited.text());
  const { link } = await invited.json();

  await page.getByRole('banner').getByRole('button', { name: 'Co-Parents' }).click();
  const dialog = page.getByRole('dialog', { name: 'Co-Parent Access' });
  await dialog.getByRole('tab', { name: 'Manage' }).click();
  const card = dialog.getByRole('article', { name: 'Sam Okafor' });
  await card.getByRole('button', { name: 'Copy Link' }).click();
  const field = card.getByLabel('Link for Sam Okafor');
  await field.waitFor();
  assert.equal(await field.inputValue(), link);
  assert.ok(await field.evaluate((el) => el === document.activeElement), 'the link field has focus');
  assert.deepEqual(
    await field.evaluate((el) => [el.selectionStart, el.selectionEnd, el.readOnly]),
    [0, link.length, true],
  );
  // The copy command worked, or the toast says to copy the selected link by hand.
  await page.getByText(/^(Link copied|Copy the selected link)$/).first().waitFor();
  await screenshot(page, 'co-parents-copy-fallback', { fullPage: false });

  // A co-parent invited elsewhere (another phone of the family) appears without a reload.
  const elsewhere = await page.request.post(`${server.url}/api/co-parents`, { data: { name: 'Lee Park', email: 'lee@example.org' } });
  assert.equal(elsewhere.status(), 201, await elsewhere.text());
  await dialog.getByRole('article', { name: 'Lee Park' }).waitFor({ timeout: 5_000 });

  // The invite's own panel falls back the same way.
  await dialog.getByRole('tab', { name: 'Invite' }).click();
  await dialog.getByLabel('Name').fill('Ana Silva');
  await dialog.getByLabel('Email').fill('ana@example.org');
  await dialog.getByRole('button', { name: 'Send Invite' }).click();
  const shown = dialog.getByRole('region', { name: 'Ana Silva has been invited as a co-parent' });
  await shown.getByRole('button', { name: 'Copy Link' }).click();
  const panelField = shown.getByLabel('Co-parent link');
  assert.ok(await panelField.evaluate((el) => el === document.activeElement && el.selectionStart === 0 && el.selectionEnd === el.value.length));

  for (const c of await serverCoParents(page)) {
    const removed = await page.request.delete(`${server.url}/api/co-parents/${c.id}`);
    assert.equal(removed.status(), 204);
  }
  assert.deepEqual(problems(page), []);
  await page.context().close();
});

test('/co-parent on a phone: invite, the info box, copy, reset and remove', async () => {
  const page = await signedIn(PHONE);
  const stream = page.waitForResponse((r) => r.url() === `${server.url}/api/events` && r.status() === 200);
  await page.goto(`${server.url}/co-parent`);
  await page.getByRole('heading', { level: 1, name: 'Co-Parent Management' }).waitFor();
  await stream;
  const about = page.getByRole('complementary', { name: 'How co-parent access works' });
  const aboutText = await about.innerText();
  for (const words of [
    "don't need a full account",
    'limited time',
    '6-digit PIN',
    'meal history and shared grocery lists',
    'cannot edit child profiles or account settings',
  ]) {
    assert.ok(aboutText.includes(words), `info box says '${words}': ${aboutText}`);
  }
  assert.ok(!aboutText.includes('4-digit'));
  await page.getByText('No co-parents have been invited yet').waitFor();
  // Invite Now moves to the form.
  await page.getByRole('button', { name: 'Invite Now' }).click();
  assert.ok(await page.getByLabel('Name').evaluate((el) => el === document.activeElement));

  await page.getByRole('button', { name: 'Send Invite' }).click();
  await page.getByText('Name is required').waitFor();
  await page.getByLabel('Name').fill('Alex Morgan');
  await page.getByLabel('Email').fill('alex@example');
  await page.getByRole('button', { name: 'Send Invite' }).click();
  await page.getByRole('main').getByText(EMAIL_TEXT).waitFor();
  await page.getByLabel('Email').fill('alex@example.org');
  await page.getByRole('button', { name: 'Send Invite' }).click();
  await page.getByText('Co-parent invited', { exact: true }).waitFor();
  const shown = page.getByRole('region', { name: 'Alex Morgan has been invited as a co-parent' });
  const link = await shown.getByLabel('Co-parent link').inputValue();
  const firstPin = await pinIn(shown);

  // The list beside it shows the new co-parent.
  const card = page.getByRole('article', { name: 'Alex Morgan' });
  await card.waitFor();
  const [made] = await serverCoParents(page);
  assert.deepEqual(await badges(page, 'Alex Morgan'), [`Expires: ${day(made.expiresAt)}`, 'Pending', 'PIN Set']);
  await card.getByRole('button', { name: 'Copy Link' }).click();
  await expectEventually(async () => assert.equal(await readClipboard(page), link));
  await card.getByRole('button', { name: 'Reset PIN' }).click();
  // It asks first: the co-parent is signed out everywhere.
  await page.getByRole('dialog', { name: 'Reset PIN?' }).getByRole('button', { name: 'Reset PIN' }).click();
  const secondPin = await pinIn(card.getByRole('status'));
  assert.notEqual(secondPin, firstPin);

  // Nothing is wider than the phone.
  assert.ok(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth), 'no sideways scrolling');
  await screenshot(page, 'co-parents-page');

  await card.getByRole('button', { name: 'Remove' }).click();
  const confirm = page.getByRole('dialog', { name: 'Remove co-parent?' });
  await confirm.getByText('Are you sure you want to remove this co-parent? They will lose all access.', { exact: true }).waitFor();
  await screenshot(page, 'co-parents-remove', { fullPage: false });
  await confirm.getByRole('button', { name: 'Remove' }).click();
  await page.getByText('Co-parent removed', { exact: true }).waitFor();
  await card.waitFor({ state: 'detached' });
  await page.getByText('No co-parents have been invited yet').waitFor();
  assert.deepEqual(await serverCoParents(page), []);

  // The side menu opens the same dialog.
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('dialog', { name: 'Menu' }).getByRole('button', { name: 'Co-Parents' }).click();
  const dialog = page.getByRole('dialog', { name: 'Co-Parent Access' });
  await dialog.waitFor();
  await dialog.getByRole('link', { name: 'Manage all co-parents' }).click();
  await dialog.waitFor({ state: 'hidden' });
  assert.equal(new URL(page.url()).pathname, '/co-parent');

  assert.deepEqual(problems(page), []);
  assert.deepEqual(page.foreign(), []);
  await page.context().close();
});
