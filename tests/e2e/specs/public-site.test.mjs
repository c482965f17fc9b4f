// The public site as a visitor sees it: landing, navigation, the mobile menu, not-found, contact.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';

import { DESKTOP, PHONE, launch, openPage, screenshot } from '../lib/browser.mjs';
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

function clean(page) {
  assert.deepEqual(page.foreign(), [], 'no request leaves the server');
  assert.deepEqual(page.problems(), [], 'no console errors (CSP violations show up here)');
}

describe('landing page', () => {
  test('shows every section with the spec texts', async () => {
    const page = await openPage(browser, server.url);
    await page.goto(server.url);
    await page.getByRole('heading', { level: 1, name: "Love in Every Bite – Even When You're Not There." }).waitFor();
    for (const name of ['How It Works', 'Add Your Kids', 'Choose Meals', 'Track Food', 'The Hidden Cost of Food Waste', 'Made for Co-Parents', 'Savings & Simplicity']) {
      assert.ok(await page.getByRole('heading', { name, exact: true }).isVisible(), name);
    }
    for (const text of ['720 lbs', '30%', '60 lbs', '310 kg', "Mum's view", "Dad's view", 'No credit card required']) {
      assert.ok(await page.getByText(text, { exact: true }).first().isVisible(), text);
    }
    const stores = page.getByRole('list', { name: 'Supported stores' }).getByRole('listitem');
    assert.deepEqual(await stores.allTextContents(), ['Tesco', "Sainsbury's", 'Asda', 'Morrisons', 'Waitrose']);
    const hero = page.locator('section').first();
    assert.equal(await hero.getByRole('link', { name: 'Get Started Free' }).getAttribute('href'), '/signup');
    assert.equal(await hero.getByRole('link', { name: 'Log In' }).getAttribute('href'), '/login');
    assert.equal(await hero.getByRole('link', { name: 'Continue as Guest' }).getAttribute('href'), '/guest');
    await screenshot(page, 'landing');
    clean(page);
    await page.context().close();
  });
});

describe('navigation', () => {
  test('footer links reach the static pages and the logo returns home', async () => {
    const page = await openPage(browser, server.url);
    await page.goto(server.url);
    const footer = page.getByRole('navigation', { name: 'Footer' });
    const pages = [
      ['About', '/about', 'About Highchair', 'Your own server'],
      ['Privacy Policy', '/privacy', 'Privacy Policy', 'Last updated: 20 May 2025'],
      ['Terms of Service', '/terms', 'Terms of Service', 'We will give at least 30 days notice before these terms change.'],
      ['Contact', '/contact', 'Contact Us', 'Support hours'],
    ];
    for (const [link, path, heading, text] of pages) {
      await footer.getByRole('link', { name: link }).click();
      await page.waitForURL(`${server.url}${path}`);
      await page.getByRole('heading', { level: 1, name: heading }).waitFor();
      assert.ok(await page.getByText(text).first().isVisible(), `${path}: ${text}`);
      await screenshot(page, path.slice(1));
    }
    assert.ok(await page.getByText('Simplifying mealtimes for families').isVisible());
    await page.goto(`${server.url}/privacy`);
    await page.getByRole('heading', { level: 1, name: 'Privacy Policy' }).waitFor();
    assert.ok(await page.getByText('Everything you enter is stored only on the server that runs this Highchair').isVisible());
    assert.ok(await page.getByText('Nothing is sent to us').isVisible());
    await page.getByRole('link', { name: 'Highchair home' }).click();
    await page.waitForURL(`${server.url}/`);
    clean(page);
    await page.context().close();
  });

  test('header links go where they say', async () => {
    const page = await openPage(browser, server.url);
    await page.goto(`${server.url}/about`);
    const main = page.getByRole('navigation', { name: 'Main' });
    for (const [name, path] of [['Meal Tracker', '/meal-tracker'], ['Recipes', '/recipes'], ['Grocery List', '/grocery-list']]) {
      assert.equal(await main.getByRole('link', { name }).getAttribute('href'), path);
    }
    const banner = page.getByRole('banner');
    await banner.getByRole('link', { name: 'Sign Up' }).click();
    await page.waitForURL(`${server.url}/signup`);
    await page.getByRole('banner').getByRole('link', { name: 'Log In' }).click();
    await page.waitForURL(`${server.url}/login`);
    await page.context().close();
  });

  test('the mobile side menu at 390x844 holds the same items', async () => {
    const page = await openPage(browser, server.url, PHONE);
    await page.goto(server.url);
    assert.equal(await page.getByRole('navigation', { name: 'Main' }).isVisible(), false, 'desktop nav hidden');
    await screenshot(page, 'landing');
    await page.getByRole('button', { name: 'Open menu' }).click();
    const menu = page.getByRole('dialog', { name: 'Menu' });
    await menu.waitFor();
    for (const name of ['Meal Tracker', 'Recipes', 'Grocery List', 'Log In', 'Sign Up']) {
      assert.ok(await menu.getByRole('link', { name }).isVisible(), name);
    }
    await screenshot(page, 'menu-open', { fullPage: false });
    const box = await menu.boundingBox();
    assert.ok(box && box.height > 700, `the menu fills the screen height (${box?.height})`);
    await menu.getByRole('button', { name: 'Close menu' }).click();
    await menu.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Open menu' }).click();
    // Grocery lists are a signed-in screen: a visitor is asked to log in.
    await page.getByRole('dialog', { name: 'Menu' }).getByRole('link', { name: 'Grocery List' }).click();
    await page.waitForURL(`${server.url}/login`);
    assert.equal(await page.getByRole('dialog', { name: 'Menu' }).count(), 0, 'menu closes on navigation');
    for (const path of ['/about', '/privacy', '/terms', '/contact', '/no-such-page']) {
      await page.goto(`${server.url}${path}`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await screenshot(page, path === '/no-such-page' ? 'not-found' : path.slice(1));
    }
    clean(page);
    await page.context().close();
  });
});

describe('not-found page', () => {
  test('unknown paths show 404 and link home; the server logs the path', async () => {
    const page = await openPage(browser, server.url);
    const response = await page.goto(`${server.url}/somewhere/else-entirely`);
    assert.equal(response.status(), 404);
    await page.getByRole('heading', { name: 'Oops! Page not found' }).waitFor();
    assert.ok(await page.getByText('404', { exact: true }).isVisible());
    await screenshot(page, 'not-found');
    await page.getByRole('link', { name: 'Return to Home' }).click();
    await page.waitForURL(`${server.url}/`);
    assert.match(server.logs(), /page not found path=\/somewhere\/else-entirely/);
    await page.context().close();
  });
});

describe('contact page', () => {
  test('validates with the spec texts, then sends the message', async () => {
    const page = await openPage(browser, server.url, DESKTOP);
    await page.goto(`${server.url}/contact`);
    await page.getByRole('button', { name: 'Send Message' }).click();
    for (const text of ['Name must be at least 2 characters', 'Please enter a valid email address', 'Message must be at least 10 characters']) {
      assert.ok(await page.getByText(text).isVisible(), text);
    }
    await screenshot(page, 'contact-errors');
    for (const text of ['Monday - Friday', '9:00 AM - 6:00 PM', '10:00 AM - 3:00 PM', 'Closed']) {
      assert.ok(await page.getByText(text, { exact: true }).isVisible(), text);
    }

    await page.getByLabel('Name').fill('Sam Jones');
    await page.getByLabel('Email').fill('sam@example.org');
    await page.getByLabel('Message').fill('The meal tracker is lovely, thank you!');
    const posted = page.waitForResponse((r) => r.url().endsWith('/api/contact') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Send Message' }).click();
    assert.equal((await posted).status(), 201);
    await page.getByText('Message sent').waitFor();
    assert.equal(await page.getByLabel('Name').inputValue(), '');
    await screenshot(page, 'contact-sent');
    clean(page);
    await page.context().close();
  });
});

describe('API documentation', () => {
  test('Swagger UI at /api/docs lists the API from the server alone, within the page security policy', async () => {
    const page = await openPage(browser, server.url);
    await page.goto(`${server.url}/api/docs`);
    // Rendered from /api/openapi.json: the title and the operations of the tags.
    await page.getByRole('heading', { name: /Highchair/ }).first().waitFor();
    await page.locator('[data-path="/meals"]').first().waitFor();
    assert.ok(await page.locator('[data-path="/grocery-lists"]').first().isVisible());
    await screenshot(page, 'api-docs');
    clean(page);
    await page.context().close();
  });
});
