// The accessibility gate: axe-core on every screen of the app, at a phone's width and a
// desktop's, with no serious or critical violation allowed; and every kind of dialog keeps
// keyboard focus inside while open, closes on Escape and gives focus back to its opener.
//
// Every screen is listed below, by who sees it. A new page or dialog gets an entry here; a
// route in ui/src/routes.json that no entry visits fails the first test.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { assertAccessible } from '../lib/axe.mjs';
import { DESKTOP, PHONE, launch, openPage } from '../lib/browser.mjs';
import { cli, startServer } from '../lib/server.mjs';

const ROUTES = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../ui/src/routes.json'), 'utf8'));

const PARENT = { firstName: 'Amira', lastName: 'Khan', email: 'amira@example.org', password: 'correct horse', role: 'mom', acceptTerms: true };
const NEW_PARENT = { ...PARENT, firstName: 'Priya', email: 'priya@example.org' };
const ONE_CHILD_PARENT = { ...PARENT, firstName: 'Sam', email: 'sam@example.org', role: 'dad' };
const FORGETFUL = { ...PARENT, firstName: 'Lena', email: 'lena@example.org' };

const h1 = (page, name) => page.getByRole('heading', { level: 1, name, exact: true });
const card = (page, name) => page.getByRole('listitem').filter({ has: page.getByRole('heading', { name, exact: true }) });
const dialog = (page, name) => page.getByRole('dialog', { name });

async function openMenu(page) {
  await page.getByRole('button', { name: 'Open menu' }).click();
  await dialog(page, 'Menu').waitFor();
}

/** Opens the header's Co-Parent Access dialog: from the header, or on a phone from the side menu. */
async function openCoParents(page) {
  if (page.viewportSize().width < 768) {
    await openMenu(page);
    await dialog(page, 'Menu').getByRole('button', { name: 'Co-Parents' }).click();
  } else {
    await page.getByRole('banner').getByRole('button', { name: 'Co-Parents' }).click();
  }
  await dialog(page, 'Co-Parent Access').waitFor();
}

/** A different e-mail for every invite the screens make. */
let invitees = 0;

/**
 * A screen: `route` names its entry in routes.json (none for the not-found page), `path` is
 * where to go (a function of the seeded data when it needs an id or token), `heading` the h1
 * that says it has loaded, `text` or `ready` what else to wait for (data loaded), `act` what to
 * do there to reach the state (a dialog open, errors shown), and `phoneOnly` for what only a
 * phone shows (the side menu).
 */
const PUBLIC_SCREENS = [
  { route: 'home', name: 'landing', path: '/', heading: "Love in Every Bite – Even When You're Not There." },
  { route: 'about', name: 'about', path: '/about', heading: 'About Highchair' },
  { route: 'privacy', name: 'privacy policy', path: '/privacy', heading: 'Privacy Policy' },
  { route: 'terms', name: 'terms of service', path: '/terms', heading: 'Terms of Service' },
  { route: 'contact', name: 'contact', path: '/contact', heading: 'Contact Us' },
  {
    route: 'contact',
    name: 'contact, with field errors',
    path: '/contact',
    heading: 'Contact Us',
    act: async (page) => {
      await page.getByRole('button', { name: 'Send Message' }).click();
      await page.getByText('Name must be at least 2 characters').waitFor();
    },
  },
  { route: 'recipes', name: 'recipes, signed out', path: '/recipes', heading: 'Chef-Quality Recipes', ready: (page) => page.getByRole('button', { name: 'Chicken breast' }).waitFor() },
  {
    route: 'recipes',
    name: 'my recipes, signed out',
    path: '/recipes',
    heading: 'Chef-Quality Recipes',
    act: async (page) => {
      await page.getByRole('tab', { name: 'My Recipes' }).click();
      await page.getByText('Sign in to save your favorite recipes!').waitFor();
    },
  },
  { route: 'login', name: 'log in', path: '/login', heading: 'Log In' },
  {
    route: 'login',
    name: 'log in, failed (error toast)',
    path: '/login',
    heading: 'Log In',
    act: async (page) => {
      await page.getByLabel('Email').fill('nobody@example.org');
      await page.getByLabel('Password').fill('not a password');
      await page.getByRole('button', { name: 'Log In' }).click();
      await page.getByText('Invalid email or password').waitFor();
    },
  },
  { route: 'signup', name: 'sign up', path: '/signup', heading: 'Sign Up' },
  { route: 'guest', name: 'continue as guest', path: '/guest', heading: 'Continue as Guest' },
  { route: 'forgotPassword', name: 'forgot password', path: '/forgot-password', heading: 'Forgot password?' },
  {
    route: 'forgotPassword',
    name: 'forgot password, requested',
    path: '/forgot-password',
    heading: 'Forgot password?',
    act: async (page) => {
      await page.getByLabel('Email').fill(FORGETFUL.email);
      await page.getByRole('button', { name: 'I need a reset' }).click();
      await page.getByRole('main').getByRole('status').waitFor();
    },
  },
  { route: 'resetPassword', name: 'reset password', path: (data) => data.resetPath, heading: 'Choose a new password' },
  { route: 'resetPassword', name: 'reset password, expired link', path: '/reset-password/no-such-token', heading: 'Reset password' },
  { route: 'join', name: 'join a family', path: (data) => data.joinPath, heading: 'Join The Khan family' },
  { route: 'join', name: 'join a family, used link', path: '/join/4b0f3c1e-8d1a-4c1e-9a3b-2f6d7e8a9b0c', heading: 'Invite not found' },
  { route: 'coParentAcceptBare', name: 'co-parent link without its token', path: '/co-parent/accept', heading: "Love in Every Bite – Even When You're Not There." },
  { route: 'coParentAccept', name: 'co-parent link, first visit', path: (data) => data.pendingAccept, heading: 'Enter your PIN', text: 'Enter the 6-digit PIN the parent who invited you shared with you.' },
  {
    route: 'coParentAccept',
    name: 'co-parent link, choose a PIN',
    // A link of its own per screen size: signing in makes a link Active.
    path: (data) => data.toChoose[0].path,
    heading: 'Enter your PIN',
    act: async (page, data) => {
      const link = data.toChoose.shift();
      await page.getByRole('group', { name: 'PIN', exact: true }).getByRole('textbox').first().click();
      await page.keyboard.type(link.pin);
      await page.getByRole('button', { name: 'Access Dashboard' }).click();
      await h1(page, 'Choose your own PIN').waitFor();
    },
  },
  { route: 'coParentAccept', name: 'co-parent link, enter the PIN', path: (data) => data.shareAccept, heading: 'Enter your PIN' },
  { route: 'coParentAccept', name: 'co-parent link, unknown', path: '/co-parent/accept/4b0f3c1e-8d1a-4c1e-9a3b-2f6d7e8a9b0c', heading: 'Invalid invitation', text: 'Invalid or expired invitation' },
  { route: 'coParentDashboardBare', name: 'co-parent view without its token', path: '/co-parent/dashboard', heading: 'No access', text: 'Invalid or missing access token' },
  { route: 'coParentDashboard', name: 'co-parent view, session expired', path: (data) => data.shareDashboard, heading: 'Session expired', text: 'Your session has expired. Please enter your PIN again.' },
  { name: 'not found', path: '/no-such-page', heading: 'Oops! Page not found' },
  { name: 'menu', path: '/', heading: "Love in Every Bite – Even When You're Not There.", phoneOnly: true, act: openMenu },
];

/** The same pages on a server where the admin turned sign-up and guests off. */
const CLOSED_SCREENS = [
  { route: 'signup', name: 'sign up, closed', path: '/signup', heading: 'Sign Up', text: 'Sign-up is closed on this server.' },
  { route: 'guest', name: 'continue as guest, turned off', path: '/guest', heading: 'Continue as Guest', text: 'Guest access is turned off on this server.' },
];

/** A parent with two children (one with restrictions and allergies) and meals, one with a photo. */
const FAMILY_SCREENS = [
  { route: 'dashboard', name: 'dashboard', path: '/dashboard', heading: 'Welcome back, Amira!', ready: (page) => page.getByRole('list', { name: 'Recent meals' }).getByRole('listitem').first().waitFor() },
  { route: 'home', name: 'home, signed in', path: '/', heading: 'Welcome back, Amira!' },
  {
    route: 'dashboard',
    name: 'dashboard, Add Child dialog',
    path: '/dashboard',
    heading: 'Welcome back, Amira!',
    act: async (page) => {
      await page.getByRole('button', { name: 'Add Child' }).click();
      const form = dialog(page, 'Add Child');
      await form.getByLabel('Allergies', { exact: true }).fill('Peanuts');
      await form.getByLabel('Allergies', { exact: true }).press('Enter');
      await form.getByRole('list', { name: 'Added allergies' }).waitFor();
    },
  },
  { route: 'profile', name: 'profile', path: '/profile', heading: 'Profile' },
  {
    route: 'profile',
    name: 'profile, invite link shown',
    path: '/profile',
    heading: 'Profile',
    act: async (page) => {
      await page.getByRole('button', { name: 'Invite a Parent' }).click();
      await page.getByLabel('Invite link').waitFor();
    },
  },
  {
    route: 'profile',
    name: 'profile, saved (success toast)',
    path: '/profile',
    heading: 'Profile',
    act: async (page) => {
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByText('Profile updated').waitFor();
    },
  },
  { route: 'children', name: 'children', path: '/children', heading: 'Children', ready: (page) => card(page, 'Emma').waitFor() },
  {
    route: 'recipes',
    name: 'recipes, generated (carousel)',
    path: '/recipes',
    heading: 'Chef-Quality Recipes',
    act: async (page) => {
      await page.getByRole('button', { name: 'Chicken breast' }).click();
      await page.getByRole('button', { name: 'Generate Recipes' }).click();
      await page.getByText('Option 1 of 3').waitFor();
    },
  },
  {
    route: 'recipes',
    name: 'my recipes',
    path: '/recipes',
    heading: 'Chef-Quality Recipes',
    act: async (page) => {
      await page.getByRole('tab', { name: 'My Recipes' }).click();
      await page.getByRole('link', { name: 'View Recipe' }).first().waitFor();
    },
  },
  {
    route: 'recipes',
    name: 'my recipes, Import a Recipe dialog (paste)',
    path: '/recipes',
    heading: 'Chef-Quality Recipes',
    act: async (page) => {
      await page.getByRole('tab', { name: 'My Recipes' }).click();
      await page.getByRole('button', { name: 'Import a Recipe' }).click();
      await dialog(page, 'Import a Recipe').getByRole('tab', { name: 'Paste' }).click();
      await dialog(page, 'Import a Recipe').getByLabel('The recipe, or its page').waitFor();
    },
  },
  { route: 'recipe', name: 'a saved recipe', path: (data) => `/recipes/${data.recipe}`, heading: 'Sunday Lentil Soup' },
  {
    route: 'recipe',
    name: 'a saved recipe, Edit Recipe dialog',
    path: (data) => `/recipes/${data.recipe}`,
    heading: 'Sunday Lentil Soup',
    act: async (page) => {
      await page.getByRole('button', { name: 'Edit' }).click();
      await dialog(page, 'Edit Recipe').waitFor();
    },
  },
  {
    route: 'recipePrint',
    name: 'a saved recipe, print view',
    path: (data) => `/recipes/${data.recipe}/print`,
    heading: 'Sunday Lentil Soup',
  },
  {
    route: 'groceryList',
    name: 'grocery lists',
    path: '/grocery-list',
    heading: 'Grocery Lists',
    ready: (page) => page.getByText('1 of 3 items checked').waitFor(),
  },
  {
    route: 'groceryList',
    name: 'grocery list, edit dialog',
    path: '/grocery-list',
    heading: 'Grocery Lists',
    act: async (page) => {
      await page.getByRole('button', { name: 'Edit Weekly shop' }).click();
      await dialog(page, 'Edit Grocery List').waitFor();
    },
  },
  {
    route: 'mealPlan',
    name: 'meal plan',
    path: '/meal-plan',
    heading: 'Meal Plan',
    ready: (page) => page.getByText('Sunday Lentil Soup').first().waitFor(),
  },
  {
    route: 'mealPlan',
    name: 'meal plan, Plan a meal dialog',
    path: '/meal-plan',
    heading: 'Meal Plan',
    act: async (page) => {
      await page.getByRole('button', { name: /^Add a meal on Tuesday/ }).click();
      await dialog(page, 'Plan a meal').waitFor();
    },
  },
  {
    route: 'groceryPrint',
    name: 'grocery list, print view',
    path: (data) => `/grocery-list/${data.groceryList}/print`,
    heading: 'Weekly shop',
  },
  {
    route: 'childFoods',
    name: 'food history',
    path: (data) => `/children/${data.emma}/foods`,
    heading: "Emma's food history",
    ready: (page) => page.getByRole('list', { name: 'Foods' }).getByRole('listitem').first().waitFor(),
  },
  {
    route: 'childAllergens',
    name: 'allergen introduction',
    path: (data) => `/children/${data.emma}/allergens`,
    heading: "Emma's allergens",
    ready: (page) => page.getByRole('list', { name: 'Allergens for Emma' }).getByRole('listitem').first().waitFor(),
  },
  {
    route: 'children',
    name: 'children, adding a child',
    path: '/children',
    heading: 'Children',
    act: async (page) => {
      await card(page, 'Emma').waitFor();
      await page.getByRole('button', { name: 'Add Child' }).click();
      await page.getByRole('heading', { level: 2, name: 'Add Child' }).waitFor();
    },
  },
  {
    route: 'children',
    name: 'children, editing a child',
    path: '/children',
    heading: 'Children',
    act: async (page) => {
      await card(page, 'Emma').getByRole('button', { name: 'Edit' }).click();
      await page.getByRole('button', { name: 'Save Changes' }).waitFor();
    },
  },
  {
    route: 'children',
    name: 'children, edit saved elsewhere meanwhile (conflict)',
    path: '/children',
    heading: 'Children',
    act: async (page, data) => {
      await card(page, 'Noah').getByRole('button', { name: 'Edit' }).click();
      await page.getByLabel('Age').fill('3');
      // The co-parent's tab saves first.
      const url = `${data.url}/api/children/${data.noah}`;
      const now = await (await page.request.get(url)).json();
      const saved = await page.request.put(url, { data: { ...now, age: now.age === 5 ? 6 : 5, version: now.version } });
      assert.equal(saved.status(), 200, await saved.text());
      await page.getByRole('button', { name: 'Save Changes' }).click();
      await page.getByText('Saved elsewhere:').waitFor();
    },
  },
  {
    route: 'children',
    name: 'children, Remove child dialog',
    path: '/children',
    heading: 'Children',
    act: async (page) => {
      await card(page, 'Emma').getByRole('button', { name: 'Remove' }).click();
      await dialog(page, 'Remove child').waitFor();
    },
  },
  { route: 'mealTracker', name: 'meal tracker', path: '/meal-tracker', heading: 'Meal Tracker', ready: (page) => page.getByRole('article', { name: 'Lunch of Emma' }).getByRole('img', { name: /^Photo of/ }).waitFor() },
  {
    route: 'mealTracker',
    name: "meal tracker, one child's meals",
    path: '/meal-tracker',
    heading: 'Meal Tracker',
    act: async (page) => {
      await page.getByRole('tab', { name: 'Noah' }).click();
      await page.getByRole('article', { name: 'Lunch of Emma' }).waitFor({ state: 'detached' });
    },
  },
  {
    route: 'mealTracker',
    name: 'meal tracker, meal actions menu',
    path: '/meal-tracker',
    heading: 'Meal Tracker',
    act: async (page) => {
      await page.getByRole('article', { name: 'Lunch of Emma' }).getByRole('button', { name: 'Meal actions' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).waitFor();
    },
  },
  {
    route: 'mealTracker',
    name: 'meal tracker, Record Meal dialog',
    path: '/meal-tracker',
    heading: 'Meal Tracker',
    act: async (page) => {
      await page.getByRole('button', { name: 'Record Meal' }).click();
      const form = dialog(page, 'Record Meal');
      await form.getByLabel('Meal type').selectOption('Dinner');
      await form.getByLabel('Foods', { exact: true }).fill('Rice');
      await form.getByLabel('Foods', { exact: true }).press('Enter');
      await form.getByRole('list', { name: 'Added foods' }).waitFor();
    },
  },
  {
    route: 'mealTracker',
    name: 'meal tracker, Delete meal dialog',
    path: '/meal-tracker',
    heading: 'Meal Tracker',
    act: async (page) => {
      await page.getByRole('article', { name: 'Lunch of Emma' }).getByRole('button', { name: 'Meal actions' }).click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await dialog(page, 'Delete meal').waitFor();
    },
  },
  {
    route: 'dashboard',
    name: 'dashboard, Co-Parent Access dialog (Invite, field errors)',
    path: '/dashboard',
    heading: 'Welcome back, Amira!',
    act: async (page) => {
      await openCoParents(page);
      const box = dialog(page, 'Co-Parent Access');
      await box.getByRole('button', { name: 'Send Invite' }).click();
      await box.getByText('Name is required').waitFor();
    },
  },
  {
    route: 'dashboard',
    name: 'dashboard, Co-Parent Access dialog (Manage, a new PIN shown)',
    path: '/dashboard',
    heading: 'Welcome back, Amira!',
    act: async (page) => {
      await openCoParents(page);
      const box = dialog(page, 'Co-Parent Access');
      await box.getByRole('tab', { name: 'Manage' }).click();
      const card = box.getByRole('article', { name: 'Jamie Rivera' });
      await card.getByRole('button', { name: 'Reset PIN' }).click();
      await dialog(page, 'Reset PIN?').getByRole('button', { name: 'Reset PIN' }).click();
      await card.getByRole('status').waitFor();
    },
  },
  { route: 'coParent', name: 'co-parent management', path: '/co-parent', heading: 'Co-Parent Management', ready: (page) => page.getByRole('article', { name: 'Jamie Rivera' }).waitFor() },
  {
    route: 'coParent',
    name: 'co-parent management, invited (link and PIN shown once)',
    path: '/co-parent',
    heading: 'Co-Parent Management',
    act: async (page) => {
      await page.getByLabel('Name').fill('Robin Hale');
      await page.getByLabel('Email').fill(`robin${++invitees}@example.org`);
      await page.getByRole('button', { name: 'Send Invite' }).click();
      await page.getByRole('region', { name: 'Robin Hale has been invited as a co-parent' }).waitFor();
    },
  },
  {
    route: 'coParent',
    name: 'co-parent management, Remove co-parent dialog',
    path: '/co-parent',
    heading: 'Co-Parent Management',
    act: async (page) => {
      await page.getByRole('article', { name: 'Jamie Rivera' }).getByRole('button', { name: 'Remove' }).click();
      await dialog(page, 'Remove co-parent?').waitFor();
    },
  },
  { name: 'not found, signed in', path: '/shopping', heading: 'Oops! Page not found' },
  { name: 'menu, signed in', path: '/dashboard', heading: 'Welcome back, Amira!', phoneOnly: true, act: openMenu },
];

/** A parent who has just signed up: the empty states. */
const NEW_FAMILY_SCREENS = [
  { route: 'dashboard', name: 'dashboard, no children yet', path: '/dashboard', heading: 'Welcome back, Priya!', ready: (page) => page.getByText('No recent meals tracked yet').waitFor() },
  { route: 'children', name: 'children, none yet', path: '/children', heading: 'Children', ready: (page) => page.getByText('No children added yet').waitFor() },
  { route: 'mealTracker', name: 'meal tracker, no children yet', path: '/meal-tracker', heading: 'Meal Tracker', ready: (page) => page.getByText('No Children Added Yet').waitFor() },
  { route: 'coParent', name: 'co-parent management, none yet', path: '/co-parent', heading: 'Co-Parent Management', ready: (page) => page.getByText('No co-parents have been invited yet').waitFor() },
];

/** A parent with one child and no meals. */
const ONE_CHILD_SCREENS = [
  { route: 'mealTracker', name: 'meal tracker, no meals yet', path: '/meal-tracker', heading: 'Meal Tracker', ready: (page) => page.getByText('No meals recorded yet').waitFor() },
];

/** A co-parent signed in through their link and PIN. */
const CO_PARENT_SCREENS = [
  { route: 'coParentDashboard', name: 'co-parent view, meals', path: (data) => data.shareDashboard, heading: 'Viewing as: Grandma Zoë', ready: (page) => page.getByRole('article').first().waitFor() },
  {
    route: 'coParentDashboard',
    name: 'co-parent view, grocery list',
    path: (data) => data.shareDashboard,
    heading: 'Viewing as: Grandma Zoë',
    act: async (page) => {
      await page.getByRole('tab', { name: 'Grocery List' }).click();
      await page.getByRole('article', { name: 'Weekly shop' }).waitFor();
    },
  },
];

/** A visitor trying the app as a guest (a temporary account with its own profile). */
const GUEST_SCREENS = [
  { route: 'dashboard', name: 'dashboard, guest', path: '/dashboard', heading: 'Welcome back, Kai!' },
  { route: 'profile', name: 'profile, guest', path: '/profile', heading: 'Profile', ready: (page) => page.getByText('Guest', { exact: true }).waitFor() },
  { route: 'coParent', name: 'co-parent management, guest', path: '/co-parent', heading: 'Co-Parent Management', text: 'Guests cannot invite co-parents. Sign up for an account to share your family.' },
];

const VIEWPORTS = [PHONE, DESKTOP];

let server;
let closedServer;
let browser;
/** What the seeded screens need: the server's URL, ids, the reset link. */
const data = {};

async function post(request, url, body) {
  const r = await request.post(url, { data: body });
  assert.ok(r.ok(), `${url}: ${r.status()} ${await r.text()}`);
  return r.status() === 204 ? null : r.json();
}

/** A JPEG made by the browser (no fixture files). */
async function photo(page) {
  const b64 = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 640;
    canvas.height = 480;
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#e07b39';
    ctx.fillRect(0, 0, 640, 480);
    return canvas.toDataURL('image/jpeg', 0.8).split(',')[1];
  });
  return { name: 'dinner.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(b64, 'base64') };
}

/** Signs the accounts up through the API and gives them their children and meals. */
async function seed() {
  const page = await openPage(browser, server.url);
  await page.goto(`${server.url}/about`);
  const api = `${server.url}/api`;
  const { request } = page;

  await post(request, `${api}/auth/signup`, FORGETFUL);
  const out = cli(['user', 'reset-password', FORGETFUL.email, '--data-dir', server.dataPath]);
  data.resetPath = new URL(out.split('\n').find((l) => l.includes('/reset-password/')).trim()).pathname;

  await request.post(`${api}/auth/logout`);
  await post(request, `${api}/auth/signup`, ONE_CHILD_PARENT);
  await post(request, `${api}/children`, { name: 'Mia', age: 2 });

  await request.post(`${api}/auth/logout`);
  await post(request, `${api}/auth/signup`, NEW_PARENT);

  await request.post(`${api}/auth/logout`);
  await post(request, `${api}/auth/signup`, PARENT);
  const emma = await post(request, `${api}/children`, { name: 'Emma', age: 4, dietaryRestrictions: ['Vegetarian'], allergies: ['Peanuts', 'Milk'] });
  const noah = await post(request, `${api}/children`, { name: 'Noah', age: 1 });
  data.noah = noah.id;
  data.emma = emma.id;
  data.joinPath = new URL((await post(request, `${api}/family/invites`, {})).url).pathname;
  await post(request, `${api}/co-parents`, { name: 'Jamie Rivera', email: 'jamie@example.org' });
  // A co-parent who chose a PIN (the screens as they see the family), and one who has not yet.
  const zoe = await post(request, `${api}/co-parents`, { name: 'Grandma Zoë', email: 'zoe@example.org' });
  data.shareToken = new URL(zoe.link).pathname.split('/').pop();
  data.sharePin = '482913';
  data.shareAccept = `/co-parent/accept/${data.shareToken}`;
  data.shareDashboard = `/co-parent/dashboard/${data.shareToken}`;
  await post(request, `${api}/share/${data.shareToken}/session`, { pin: zoe.pin });
  await post(request, `${api}/share/${data.shareToken}/pin`, { pin: data.sharePin, confirmPin: data.sharePin });
  await request.delete(`${api}/share/${data.shareToken}/session`);
  data.pendingAccept = new URL((await post(request, `${api}/co-parents`, { name: 'Robin Lee', email: 'robin@example.org' })).link).pathname;
  data.toChoose = [];
  for (const [name, email] of [['Sam Okafor', 'sam@example.org'], ['Kit Morgan', 'kit@example.org']]) {
    const made = await post(request, `${api}/co-parents`, { name, email });
    data.toChoose.push({ path: new URL(made.link).pathname, pin: made.pin });
  }
  data.recipe = (await post(request, `${api}/recipes`, {
    source: 'own',
    title: 'Sunday Lentil Soup',
    description: 'Our family soup.',
    ingredients: [{ name: 'Red lentils', quantity: '200 g' }, { name: 'Carrot', quantity: '2' }],
    instructions: ['Rinse the lentils.', 'Simmer with the carrots for 20 minutes.'],
    preparationTime: 10,
  })).id;
  data.groceryList = (await post(request, `${api}/grocery-lists`, {
    name: 'Weekly shop',
    items: [
      { name: 'Bananas', quantity: '6', category: 'Produce', checked: true },
      { name: 'Milk', quantity: '2 l', category: 'Dairy' },
      { name: 'Bread', quantity: '1', category: 'Bakery' },
    ],
  })).id;
  const week = await (await request.get(`${api}/meal-plan`)).json();
  const planned = await request.put(`${api}/meal-plan?week=${week.week}`, {
    data: {
      version: 0,
      entries: [
        { date: week.days[0], mealType: 'Dinner', recipeId: data.recipe, servings: 4, childIds: [emma.id] },
        { date: week.days[2], mealType: 'Lunch', text: 'Leftovers', childIds: [] },
      ],
    },
  });
  assert.ok(planned.ok(), await planned.text());
  const media = await request.post(`${api}/media`, { multipart: { file: await photo(page) } });
  assert.ok(media.ok(), await media.text());
  await post(request, `${api}/meals`, { childId: emma.id, mealType: 'Lunch', foods: ['Pasta', 'Peas'], portion: 'half', mood: 'happy', feedback: 'loved', notes: 'Ate slowly', photo: (await media.json()).id });
  await post(request, `${api}/meals`, { childId: noah.id, mealType: 'Breakfast', foods: ['Porridge'], portion: 'full', mood: 'sad', feedback: 'disliked' });
  await post(request, `${api}/meals`, { childId: emma.id, mealType: 'Afternoon Snack', foods: ['Apple'], portion: 'seconds', mood: 'neutral' });
  await request.post(`${api}/auth/logout`);

  // With sign-up turned off, the first account can still be made (the admin's); after it, not.
  await post(request, `${closedServer.url}/api/auth/signup`, PARENT);
  await page.context().close();
}

before(async () => {
  [server, closedServer, browser] = await Promise.all([
    startServer(),
    startServer({ HIGHCHAIR_AUTH_ALLOW_SIGNUP: 'false', HIGHCHAIR_AUTH_ALLOW_GUESTS: 'false' }),
    launch(),
  ]);
  data.url = server.url;
  await seed();
});

after(async () => {
  await browser?.close();
  await Promise.all([server?.stop(), closedServer?.stop()]);
});

test('every route of the UI is on the list of screens checked', () => {
  const all = [...PUBLIC_SCREENS, ...CLOSED_SCREENS, ...FAMILY_SCREENS, ...NEW_FAMILY_SCREENS, ...ONE_CHILD_SCREENS, ...GUEST_SCREENS, ...CO_PARENT_SCREENS];
  const listed = new Set(all.map((s) => s.route));
  const missing = Object.keys(ROUTES).filter((name) => !listed.has(name));
  assert.deepEqual(missing, [], 'add these routes to the screens of accessibility.test.mjs');
});

/** Opens the screen, waits until it shows what it should, reaches its state and runs axe. */
async function check(page, base, screen) {
  const path = typeof screen.path === 'function' ? screen.path(data) : screen.path;
  await page.goto(`${base}${path}`);
  await h1(page, screen.heading).waitFor();
  if (screen.text) await page.getByText(screen.text).waitFor();
  await screen.ready?.(page);
  await screen.act?.(page, data);
  await assertAccessible(page, screen.name);
}

/** One test per screen, on one page per viewport signed in as `account` (or signed out). */
function screens(title, screenList, { account, guest, share, base = () => server.url } = {}) {
  for (const viewport of VIEWPORTS) {
    describe(`${title} at ${viewport.width}px`, () => {
      let page;
      before(async () => {
        page = await openPage(browser, base(), viewport);
        if (account) await post(page.request, `${base()}/api/auth/login`, { email: account.email, password: account.password });
        if (guest) await post(page.request, `${base()}/api/auth/guest`, guest);
        if (share) await post(page.request, `${base()}/api/share/${data.shareToken}/session`, { pin: data.sharePin });
      });
      after(async () => {
        assert.deepEqual(page.foreign(), [], 'no request leaves the server');
        await page.context().close();
      });
      for (const screen of screenList.filter((s) => !s.phoneOnly || viewport === PHONE)) {
        test(screen.name, () => check(page, base(), screen));
      }
    });
  }
}

screens('signed out', PUBLIC_SCREENS);
screens('sign-up and guests turned off', CLOSED_SCREENS, { base: () => closedServer.url });
screens('a parent with children and meals', FAMILY_SCREENS, { account: PARENT });
screens('a parent who has just signed up', NEW_FAMILY_SCREENS, { account: NEW_PARENT });
screens('a parent with a child and no meals', ONE_CHILD_SCREENS, { account: ONE_CHILD_PARENT });
screens('a guest', GUEST_SCREENS, { guest: { firstName: 'Kai', children: 2 } });
screens('a co-parent', CO_PARENT_SCREENS, { share: true });

// Keyboard use of every kind of dialog: the Modal (a form), the ConfirmDialog and the phone's
// side menu. While open, Tab and Shift+Tab cycle inside it; Escape closes it and focus returns
// to the control that opened it.

/** Whether keyboard focus is inside the dialog (and not on the page behind or the document). */
const focusInside = (locator) => locator.evaluate((d) => d.contains(document.activeElement) && document.activeElement !== document.body);
const isFocused = (locator) => locator.evaluate((el) => el === document.activeElement);

/** Opens the dialog from `opener` with the keyboard, then Tabs around and leaves with Escape. */
async function assertTrapsFocus(page, opener, box, { returnTo = opener } = {}) {
  await opener.focus();
  await page.keyboard.press('Enter');
  await box.waitFor();
  assert.ok(await focusInside(box), 'focus moves into the dialog when it opens');
  const stops = await box.evaluate(
    (d) => d.querySelectorAll('a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled])').length,
  );
  const seen = new Set();
  for (const key of ['Tab', 'Shift+Tab']) {
    for (let i = 0; i < stops + 3; i++) {
      await page.keyboard.press(key);
      assert.ok(await focusInside(box), `focus stays inside after ${key} #${i + 1}`);
      seen.add(await page.evaluate(() => document.activeElement.outerHTML));
    }
  }
  assert.ok(seen.size >= 2, 'Tab moves between the controls of the dialog');
  await page.keyboard.press('Escape');
  await box.waitFor({ state: 'hidden' });
  assert.ok(await isFocused(returnTo), 'focus is back on the control that opened the dialog');
}

describe('dialogs keep focus inside and close on Escape', () => {
  let page;
  before(async () => {
    page = await openPage(browser, server.url, PHONE);
    await post(page.request, `${server.url}/api/auth/login`, { email: PARENT.email, password: PARENT.password });
  });
  after(() => page.context().close());

  test('Add Child (a Modal with a form)', async () => {
    await page.goto(`${server.url}/dashboard`);
    await h1(page, 'Welcome back, Amira!').waitFor();
    await assertTrapsFocus(page, page.getByRole('button', { name: 'Add Child' }), dialog(page, 'Add Child'));
  });

  test('Record Meal (a Modal with a form)', async () => {
    await page.goto(`${server.url}/meal-tracker`);
    await page.getByRole('article').first().waitFor();
    await assertTrapsFocus(page, page.getByRole('button', { name: 'Record Meal' }), dialog(page, 'Record Meal'));
  });

  test('Remove child (a ConfirmDialog)', async () => {
    await page.goto(`${server.url}/children`);
    await assertTrapsFocus(page, card(page, 'Emma').getByRole('button', { name: 'Remove' }), dialog(page, 'Remove child'));
    await card(page, 'Emma').waitFor();
  });

  test('Delete meal (a ConfirmDialog opened from a menu)', async () => {
    await page.goto(`${server.url}/meal-tracker`);
    const meal = page.getByRole('article', { name: 'Lunch of Emma' });
    const actions = meal.getByRole('button', { name: 'Meal actions' });
    await actions.click();
    // The menu closes when an item is chosen; focus comes back to the button that opened it.
    await assertTrapsFocus(page, meal.getByRole('menuitem', { name: 'Delete' }), dialog(page, 'Delete meal'), { returnTo: actions });
    assert.equal(await meal.getByRole('menu').count(), 0, 'the menu stays closed');
    await meal.waitFor();
  });

  test('Co-Parent Access (a Modal with tabs, opened from the side menu)', async () => {
    await page.goto(`${server.url}/dashboard`);
    await h1(page, 'Welcome back, Amira!').waitFor();
    await openMenu(page);
    await assertTrapsFocus(page, dialog(page, 'Menu').getByRole('button', { name: 'Co-Parents' }), dialog(page, 'Co-Parent Access'), {
      returnTo: page.getByRole('button', { name: 'Open menu' }),
    });
  });

  test('Remove co-parent (a ConfirmDialog inside the Co-Parent Access dialog)', async () => {
    await page.goto(`${server.url}/dashboard`);
    await h1(page, 'Welcome back, Amira!').waitFor();
    await openCoParents(page);
    const outer = dialog(page, 'Co-Parent Access');
    await outer.getByRole('tab', { name: 'Manage' }).click();
    const card = outer.getByRole('article', { name: 'Jamie Rivera' });
    // Escape closes the question only; the dialog behind it stays open.
    await assertTrapsFocus(page, card.getByRole('button', { name: 'Remove' }), dialog(page, 'Remove co-parent?'));
    assert.ok(await outer.isVisible(), 'the Co-Parent Access dialog is still open');
    await card.waitFor();
    await page.keyboard.press('Escape');
    await outer.waitFor({ state: 'hidden' });
  });

  test('the side menu on a phone', async () => {
    await page.goto(`${server.url}/dashboard`);
    await h1(page, 'Welcome back, Amira!').waitFor();
    await assertTrapsFocus(page, page.getByRole('button', { name: 'Open menu' }), dialog(page, 'Menu'));
  });

  test('a dialog closed with Escape opens again at once', async () => {
    await page.goto(`${server.url}/dashboard`);
    await h1(page, 'Welcome back, Amira!').waitFor();
    const opener = page.getByRole('button', { name: 'Add Child' });
    for (let round = 0; round < 3; round++) {
      await opener.focus();
      await page.keyboard.press('Enter');
      await dialog(page, 'Add Child').waitFor();
      await page.keyboard.press('Escape');
      await dialog(page, 'Add Child').waitFor({ state: 'hidden' });
      // When Chrome closes a dialog on its own (repeated Escapes), its `close` event is a
      // queued task: let it arrive, as it always has before a person can press a key again.
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0))));
    }
    assert.deepEqual(page.problems(), []);
  });
});
