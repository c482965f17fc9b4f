// Recipes from anywhere (issue 31): a parent imports a recipe by its web address (a site on
// loopback serving the fixture pages), sees the warning for Leo's peanut allergy and his age
// notes, edits the draft and saves it with its picture; opens it, edits it, prints it. Then a
// site that blocks the server: the page says so and offers pasting, and a pasted recipe saves.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { assertAccessible } from '../lib/axe.mjs';
import { DESKTOP, PHONE, launch, openPage, screenshot } from '../lib/browser.mjs';
import { expectEventually } from '../lib/eventually.mjs';
import { startRecipePages } from '../lib/recipe-pages.mjs';
import { startServer } from '../lib/server.mjs';

let browser;
let site;

before(async () => {
  browser = await launch();
  site = await startRecipePages();
});

after(async () => {
  await site?.stop();
  await browser?.close();
});

/** The "YYYY-MM" of `n` months ago. */
function monthsAgo(n) {
  const d = new Date();
  d.setDate(1);
  d.setMonth(d.getMonth() - n);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}`;
}

async function parentWithLeo(page, server) {
  await page.goto(`${server.url}/about`);
  const api = `${server.url}/api`;
  const signup = await page.request.post(`${api}/auth/signup`, {
    data: { firstName: 'Nia', lastName: 'Okafor', email: 'nia@example.org', password: 'correct horse', role: 'mom', acceptTerms: true },
  });
  assert.equal(signup.status(), 201);
  const child = await page.request.post(`${api}/children`, {
    data: { name: 'Leo', birthMonth: monthsAgo(9), allergies: ['Peanuts'] },
  });
  assert.equal(child.status(), 201);
}

async function openImport(page, server) {
  await page.goto(`${server.url}/recipes`);
  await page.getByRole('tab', { name: 'My Recipes' }).click();
  await page.getByRole('button', { name: 'Import a Recipe' }).click();
  return page.getByRole('dialog', { name: 'Import a Recipe' });
}

test('a recipe imported by its address warns for Leo, saves with its picture, and can be edited and printed', async () => {
  const server = await startServer({ HIGHCHAIR_RECIPES_IMPORT_ALLOW_PRIVATE: 'true' });
  try {
    const page = await openPage(browser, server.url, DESKTOP);
    await parentWithLeo(page, server);
    const dialog = await openImport(page, server);
    await dialog.getByLabel("Recipe's web address").fill(`${site.url}/satay-for-the-family.html`);
    await dialog.getByRole('button', { name: 'Import' }).click();
    // The draft opens for editing, with what it means for Leo.
    const title = dialog.getByLabel('Title');
    await title.waitFor();
    assert.equal(await title.inputValue(), 'Chicken satay skewers with fruit salad');
    const warning = dialog.getByRole('alert').filter({ hasText: 'Allergy warning' });
    assert.match(await warning.innerText(), /peanut/i);
    const notes = await dialog.getByRole('list', { name: 'Notes for the children' }).innerText();
    assert.match(notes, /For Leo \(9 months\)/);
    assert.match(notes, /quarter the grapes lengthways/);
    assert.match(notes, /no honey before 12 months/);
    assert.match(await dialog.getByLabel('Ingredients').inputValue(), /^3 tbsp smooth peanut butter$/m);
    assert.equal(await dialog.getByLabel('Source (web address)').inputValue(), `${site.url}/satay-for-the-family.html`);
    await assertAccessible(page, 'recipe import draft');
    await screenshot(page, 'recipe-import-draft');
    await title.fill('Satay skewers');
    await dialog.getByRole('button', { name: 'Save Recipe' }).click();
    await page.getByText('Recipe saved successfully! 🎉').waitFor();
    await page.getByRole('list', { name: 'My recipes' }).waitFor();
    await screenshot(page, 'recipe-import-saved');

    // In My Recipes, marked imported and with its warning; its page shows the picture and source.
    const card = page.getByRole('list', { name: 'My recipes' }).getByRole('listitem').filter({ hasText: 'Satay skewers' });
    await card.getByText('Imported').waitFor();
    await card.getByText('Allergy warning').waitFor();
    // The card shows the recipe's picture (spec: cards show the image).
    const thumb = card.locator('img');
    await thumb.waitFor();
    await expectEventually(async () =>
      assert.ok(await thumb.evaluate((img) => img.complete && img.naturalWidth > 0), 'the card picture loads'),
    );
    await card.getByRole('link', { name: 'View Recipe' }).click();
    await page.getByRole('heading', { level: 1, name: 'Satay skewers' }).waitFor();
    const picture = page.getByRole('img', { name: 'Satay skewers' });
    await picture.waitFor();
    assert.ok(await picture.evaluate((img) => img.complete && img.naturalWidth > 0), 'the picture loads');
    await page.getByRole('link', { name: '127.0.0.1' }).waitFor();
    await assertAccessible(page, 'imported recipe');

    // Edited: honey swapped for maple syrup, and the honey note goes.
    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit Recipe' });
    const ingredients = edit.getByLabel('Ingredients');
    await ingredients.fill((await ingredients.inputValue()).replace('2 tbsp honey', '2 tbsp maple syrup'));
    await edit.getByRole('button', { name: 'Save Recipe' }).click();
    await page.getByText('Recipe updated').waitFor();
    const after = await page.getByRole('list', { name: 'Notes for the children' }).innerText();
    assert.doesNotMatch(after, /honey/);
    assert.match(after, /quarter the grapes lengthways/);

    // The print view carries the warnings and notes too.
    await page.getByRole('link', { name: 'Print' }).click();
    await page.getByRole('heading', { level: 1, name: 'Satay skewers' }).waitFor();
    assert.match(await page.locator('main').innerText(), /Allergy warning[\s\S]*peanut/i);
    await page.getByText(/For Leo \(9 months\)/).waitFor();
    await screenshot(page, 'recipe-print');
  } finally {
    await server.stop();
  }
});

test('a site that blocks the server offers pasting; a pasted recipe saves with its warning', async () => {
  const server = await startServer({ HIGHCHAIR_RECIPES_IMPORT_ALLOW_PRIVATE: 'true' });
  try {
    const page = await openPage(browser, server.url, PHONE);
    await parentWithLeo(page, server);
    const dialog = await openImport(page, server);
    await dialog.getByLabel("Recipe's web address").fill(`${site.url}/blocked`);
    await dialog.getByRole('button', { name: 'Import' }).click();
    const alert = dialog.getByRole('alert');
    await alert.getByText('Blocked by the site').waitFor();
    await screenshot(page, 'recipe-import-blocked');
    await alert.getByRole('button', { name: 'Paste the recipe instead' }).click();
    await dialog
      .getByLabel('The recipe, or its page')
      .fill(
        "Nutty banana toast\nServes 2\n\nIngredients\n- 2 slices wholemeal bread\n- 2 tbsp peanut butter\n- 1 banana, sliced\n\nMethod\n1. Toast the bread.\n2. Spread with peanut butter and top with banana.",
      );
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.getByLabel('Title').waitFor();
    assert.equal(await dialog.getByLabel('Title').inputValue(), 'Nutty banana toast');
    assert.equal(await dialog.getByLabel('Servings').inputValue(), '2');
    assert.match(await dialog.getByRole('alert').filter({ hasText: 'Allergy warning' }).innerText(), /peanut/i);
    await assertAccessible(page, 'pasted recipe draft');
    await dialog.getByRole('button', { name: 'Save Recipe' }).click();
    await page.getByText('Recipe saved successfully! 🎉').waitFor();
    const card = page.getByRole('list', { name: 'My recipes' }).getByRole('listitem').filter({ hasText: 'Nutty banana toast' });
    await card.getByText('Allergy warning').waitFor();
  } finally {
    await server.stop();
  }
});
