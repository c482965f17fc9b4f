// Debian's Chromium driven by playwright-core (no browser downloads on this machine).
// playwright gives every launch a fresh temporary profile.
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';

import { chromium } from 'playwright-core';

export const ARTIFACTS = resolve(import.meta.dirname, '../artifacts');
export const DESKTOP = { width: 1280, height: 800 };
export const PHONE = { width: 390, height: 844 };

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/**
 * A page (in a UK browser unless `locale` says otherwise) that records every request and console error, so tests can check that nothing left
 * the server and that no script or style was blocked by the Content-Security-Policy.
 */
export async function openPage(browser, serverUrl, viewport = DESKTOP, { locale = 'en-GB' } = {}) {
  const context = await browser.newContext({
    // A UK family's browser unless a test says otherwise: dates follow the browser's locale.
    locale,
    viewport,
    isMobile: viewport === PHONE,
    hasTouch: viewport === PHONE,
  });
  return watch(await context.newPage(), serverUrl);
}

/** Another tab of the same browser (same context, so the same cookies), recorded the same way. */
export async function openTab(page, serverUrl) {
  return watch(await page.context().newPage(), serverUrl);
}

function watch(page, serverUrl) {
  const requests = [];
  const problems = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(`${m.text()} ${m.location()?.url ?? ''}`.trim());
  });
  page.on('pageerror', (e) => problems.push(String(e)));
  page.foreign = () =>
    requests.filter((u) => !u.startsWith(serverUrl) && !u.startsWith('data:') && !u.startsWith('blob:'));
  // Chrome reports every non-2xx answer as a console error. A 404 for a page that does not
  // exist and a 401 from a refused sign-in are expected; the session probe never fails (it
  // answers 200 with no user), and anything else is a problem.
  const expected = (p) =>
    p.includes('status of 404 (Not Found)') ||
    (p.includes('status of 401 (Unauthorized)') && !p.includes('/api/auth/session'));
  page.problems = () => problems.filter((p) => !expected(p));
  return page;
}

/** Saves a screenshot; `fullPage: false` for overlays (menus, dialogs) that belong to the viewport. */
export async function screenshot(page, name, { fullPage = true } = {}) {
  const kind = page.viewportSize().width < 500 ? 'phone' : 'desktop';
  const dir = join(ARTIFACTS, kind);
  mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: join(dir, `${name}.png`), fullPage });
}

/** Signs a parent up through the sign-up page and waits for the dashboard. */
export async function signUpInBrowser(page, serverUrl, { first, last, email, password }) {
  await page.goto(`${serverUrl}/signup`);
  await page.getByLabel('First name').fill(first);
  await page.getByLabel('Last name').fill(last);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('checkbox').check();
  await page.getByRole('button', { name: 'Create Account' }).click();
  await page.waitForURL(`${serverUrl}/dashboard`);
}
