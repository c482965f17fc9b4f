// Accounts as a parent uses them: sign up, stay signed in, log out and in, guests, a wrong
// password, protected pages, and a password reset through the link the admin CLI prints.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { DESKTOP, PHONE, launch, openPage, screenshot } from '../lib/browser.mjs';
import { cli, startServer } from '../lib/server.mjs';

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

async function signUp(page, { first = 'Amira', email, password }) {
  await page.goto(`${server.url}/signup`);
  await page.getByLabel('First name').fill(first);
  await page.getByLabel('Last name').fill('Khan');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL(`${server.url}/dashboard`);
}

async function logIn(page, email, password) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log In' }).click();
}

describe('a parent', () => {
  test('signs up, stays signed in across a reload, logs out and logs back in', async () => {
    const page = await openPage(browser, server.url);
    await page.goto(`${server.url}/signup`);
    await page.getByRole('heading', { name: 'Sign Up' }).waitFor();
    assert.equal(await page.getByLabel('I am a').inputValue(), 'mom');
    assert.ok(await page.getByText('At least 8 characters').isVisible());
    await screenshot(page, 'signup');
    await signUp(page, { email: 'amira@example.org', password: 'correct horse' });
    await page.getByText('Account created').waitFor();
    // A new account is welcomed, not welcomed back.
    await page.getByRole('heading', { name: 'Welcome, Amira!' }).waitFor();
    for (const card of ['Recipe Generator', 'Meal Tracker', 'Grocery List']) {
      assert.ok(await page.getByRole('heading', { name: card }).isVisible(), card);
    }
    assert.ok(await page.getByText('Welcome, Amira! 👋').isVisible());
    await screenshot(page, 'dashboard');

    await page.reload();
    await page.getByRole('heading', { name: 'Welcome, Amira!' }).waitFor();
    const cookies = await page.context().cookies();
    const session = cookies.find((c) => c.name === 'highchair_session');
    assert.ok(session?.httpOnly, 'the session cookie is HttpOnly');
    assert.equal(session.sameSite, 'Lax');
    assert.equal(await page.evaluate(() => document.cookie), '', 'scripts cannot read the session');

    await page.getByRole('button', { name: 'Log Out' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.getByText('You have been successfully signed out').waitFor();
    await page.getByRole('heading', { level: 1, name: "Love in Every Bite – Even When You're Not There." }).waitFor();

    await page.getByRole('banner').getByRole('link', { name: 'Log In' }).click();
    await screenshot(page, 'login');
    await logIn(page, 'amira@example.org', 'correct horse');
    await page.waitForURL(`${server.url}/dashboard`);
    await page.getByText('Welcome back!', { exact: true }).waitFor();
    await page.getByText('You have successfully signed in').waitFor();
    await page.getByRole('heading', { name: 'Welcome back, Amira!' }).waitFor();
    assert.deepEqual(page.problems(), []);
    await page.context().close();
  });

  test('sees a clear message for a wrong password', async () => {
    const page = await openPage(browser, server.url);
    await page.goto(`${server.url}/login`);
    await logIn(page, 'amira@example.org', 'not my password');
    await page.getByText('Sign in failed').waitFor();
    assert.ok(await page.getByText('Invalid email or password').isVisible());
    assert.equal(await page.getByRole('button', { name: 'Log In' }).isEnabled(), true, 'the button is usable again');
    assert.equal(new URL(page.url()).pathname, '/login');
    await page.context().close();
  });

  test('opening a protected page while signed out goes to /login and back after signing in', async () => {
    const page = await openPage(browser, server.url);
    await page.goto(`${server.url}/profile`);
    await page.waitForURL(`${server.url}/login`);
    await logIn(page, 'amira@example.org', 'correct horse');
    await page.waitForURL(`${server.url}/profile`);
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    assert.equal(await page.getByLabel('Email').inputValue(), 'amira@example.org');
    assert.equal(await page.getByLabel('Email').isDisabled(), true, 'the e-mail is read-only');
    await page.getByLabel('First name').fill('Ami');
    await page.getByRole('button', { name: 'Save Changes' }).click();
    await page.getByText('Profile updated').waitFor();
    await page.getByText('Welcome, Ami! 👋').waitFor();
    await screenshot(page, 'profile');
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.context().close();
  });

  test('forgets the password and resets it with the link the admin prints', async () => {
    const page = await openPage(browser, server.url);
    await page.goto(`${server.url}/login`);
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.waitForURL(`${server.url}/forgot-password`);
    await page.getByText('highchair user reset-password your@email').waitFor();
    await screenshot(page, 'forgot-password');

    // The admin runs the CLI on the server while it is running (through the admin socket).
    const out = cli(['user', 'reset-password', 'amira@example.org', '--data-dir', server.dataPath]);
    const link = out.split('\n').find((l) => l.includes('/reset-password/')).trim();
    assert.ok(link.startsWith(server.url), link);

    await page.goto(link);
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill('a brand new password');
    await page.getByLabel('Confirm new password').fill('a brand new password');
    await page.getByRole('button', { name: 'Set New Password' }).click();
    await page.waitForURL(`${server.url}/dashboard`);
    await page.getByText('Password updated').waitFor();

    await page.goto(link);
    await page.getByText('This password reset link is invalid or has expired.', { exact: false }).waitFor();

    await page.getByRole('link', { name: 'Back to Log In' }).click();
    await page.goto(`${server.url}/profile`);
    await page.getByRole('button', { name: 'Sign Out' }).click();
    await page.waitForURL(`${server.url}/`);
    await page.goto(`${server.url}/login`);
    await logIn(page, 'amira@example.org', 'correct horse');
    await page.getByText('Invalid email or password').waitFor();
    await logIn(page, 'amira@example.org', 'a brand new password');
    await page.waitForURL(`${server.url}/dashboard`);
    await page.context().close();
  });
});

describe('a visitor', () => {
  test('continues as a guest from a phone', async () => {
    const page = await openPage(browser, server.url, PHONE);
    await page.goto(server.url);
    await page.getByRole('link', { name: 'Continue as Guest' }).click();
    await page.waitForURL(`${server.url}/guest`);
    await page.getByText('Guest access has limited features', { exact: false }).waitFor();
    await screenshot(page, 'guest');
    await page.getByLabel('First name').fill('Sam');
    await page.getByLabel('Number of children').fill('2');
    await page.getByRole('button', { name: 'Continue as Guest' }).click();
    await page.waitForURL(`${server.url}/dashboard`);
    await page.getByText("You're using the app as a guest").waitFor();
    await page.getByRole('heading', { name: 'Welcome, Sam!' }).waitFor();
    await screenshot(page, 'dashboard');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await menu.getByText('Welcome, Sam! 👋').waitFor();
    await screenshot(page, 'menu-signed-in', { fullPage: false });
    await menu.getByRole('link', { name: 'Profile' }).click();
    await page.getByRole('heading', { name: 'Profile' }).waitFor();
    // The guest sees their own name and 'Guest', never the internal name or reserved address.
    assert.equal(await page.getByLabel('Email').inputValue(), 'Guest');
    assert.equal(await page.getByLabel('First name').inputValue(), 'Sam');
    // The two children asked for are there.
    await page.goto(`${server.url}/children`);
    await page.getByRole('heading', { name: 'Child 2' }).waitFor();
    await screenshot(page, 'profile');
    assert.deepEqual(page.foreign(), []);
    await page.context().close();
  });

  test('sees the sign-in and sign-up pages on a phone', async () => {
    const page = await openPage(browser, server.url, PHONE);
    for (const [path, heading] of [['/login', 'Log In'], ['/signup', 'Sign Up'], ['/forgot-password', 'Forgot password?']]) {
      await page.goto(`${server.url}${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      await screenshot(page, path.slice(1));
    }
    await page.context().close();
  });
});
