// Recipes as a parent and as a visitor: pick ingredients, generate (built-in generator), browse
// the carousel, save, find it in My Recipes, open it, log it as a meal, delete it. A child's
// allergy fills the allergies field and is honoured. Then, against a fake Ollama that streams
// slowly, a visitor sees live progress and is asked to log in to save.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';

import { DESKTOP, PHONE, launch, openPage, screenshot } from '../lib/browser.mjs';
import { startFakeOllama } from '../lib/fake-ollama.mjs';
import { expectEventually } from '../lib/eventually.mjs';
import { startServer } from '../lib/server.mjs';

let browser;

before(async () => {
  browser = await launch();
});

after(async () => {
  await browser?.close();
});

test('a parent generates, saves, opens, logs and deletes a recipe; the allergy is honoured', async () => {
  const server = await startServer();
  try {
    const page = await openPage(browser, server.url, DESKTOP);
    await page.goto(`${server.url}/about`);
    const api = `${server.url}/api`;
    const signup = await page.request.post(`${api}/auth/signup`, {
      data: { firstName: 'Amira', lastName: 'Khan', email: 'amira@example.org', password: 'correct horse', role: 'mom', acceptTerms: true },
    });
    assert.equal(signup.status(), 201);
    const child = await page.request.post(`${api}/children`, { data: { name: 'Emma', age: 3, allergies: ['Peanuts'] } });
    assert.equal(child.status(), 201);

    await page.goto(`${server.url}/recipes`);
    await page.getByRole('heading', { name: 'Chef-Quality Recipes' }).waitFor();
    // Filled in once the children have loaded.
    await expectEventually(async () =>
      assert.equal(await page.getByLabel('Allergies').inputValue(), 'Peanuts'),
    );
    const generate = page.getByRole('button', { name: 'Generate Recipes' });
    assert.ok(await generate.isDisabled(), 'disabled until an ingredient is chosen');
    await page.getByRole('button', { name: 'Chicken breast' }).click();
    await page.getByRole('tab', { name: 'Vegetables' }).click();
    await page.getByRole('button', { name: 'Broccoli' }).click();
    await page.getByRole('button', { name: 'Carrot', exact: true }).click();
    await page.getByLabel('Search ingredients').fill('peanut');
    await page.getByRole('button', { name: 'Peanut butter' }).click();
    // Marked as soon as it is chosen: it will be left out, and why.
    await page
      .getByRole('list', { name: 'Left out of the recipes' })
      .getByText('Peanut butter was left out: Emma is allergic to peanuts.')
      .waitFor();
    await page.getByLabel('Search ingredients').fill('');
    await page.getByLabel('Difficulty').selectOption({ label: 'Some Technique' });
    await generate.click();
    await page.getByText('Option 1 of 3').waitFor();
    await page.getByText('Recipes ready! 🍲').waitFor();
    // Peanut butter was left out, and says plainly why.
    await page
      .getByRole('status')
      .getByText('Peanut butter was left out: Emma is allergic to peanuts.')
      .waitFor();
    const shown = await page.getByRole('article').innerText();
    assert.ok(!/peanut/i.test(shown), shown);
    assert.match(shown, /Est\. Cost £\d+\.\d\d/);
    assert.match(shown, /Serves 2/);
    assert.match(shown, /Some Technique/);
    await screenshot(page, 'recipes-results');
    const firstTitle = await page.getByRole('article').getByRole('heading', { level: 2 }).innerText();
    await page.getByRole('button', { name: 'Next option' }).click();
    await page.getByText('Option 2 of 3').waitFor();
    await page.getByRole('button', { name: 'Next option' }).click();
    await page.getByRole('button', { name: 'Next option' }).click();
    await page.getByText('Option 1 of 3').waitFor();
    await page.getByRole('button', { name: 'Previous option' }).click();
    await page.getByText('Option 3 of 3').waitFor();
    await page.getByRole('button', { name: 'Next option' }).click();
    await page.getByRole('tab', { name: 'Instructions' }).click();
    assert.ok((await page.getByRole('tabpanel').locator('li').count()) >= 3);
    await page.getByRole('button', { name: 'Save Recipe' }).click();
    await page.getByText('Recipe saved! 🎉').waitFor();
    // The next option can be saved too: "Saved" belongs to the option that was saved.
    await page.getByRole('button', { name: 'Next option' }).click();
    assert.ok(await page.getByRole('button', { name: 'Save Recipe' }).isEnabled());
    await page.getByRole('button', { name: 'Previous option' }).click();
    // A look at My Recipes keeps the results.
    await page.getByRole('tab', { name: 'My Recipes' }).click();
    await page.getByRole('tab', { name: 'Create Recipe' }).click();
    await page.getByText('Option 1 of 3').waitFor();

    await page.getByRole('tab', { name: 'My Recipes' }).click();
    const card = page.getByRole('list', { name: 'My recipes' }).getByRole('listitem').filter({ hasText: firstTitle });
    await card.waitFor();
    await card.getByRole('link', { name: 'View Recipe' }).click();
    await page.getByRole('heading', { level: 1, name: firstTitle }).waitFor();
    await screenshot(page, 'recipe-view');
    await page.getByRole('button', { name: 'Log as a meal' }).click();
    const dialog = page.getByRole('dialog', { name: 'Log as a meal' });
    await dialog.getByLabel('Meal type').selectOption('Lunch');
    await dialog.getByRole('button', { name: 'Log Meal' }).click();
    await page.getByText('Meal recorded! 🍽️').waitFor();
    const meals = await (await page.request.get(`${api}/meals`)).json();
    assert.equal(meals.items.length, 1);
    assert.equal(meals.items[0].mealType, 'Lunch');
    assert.ok(meals.items[0].foods.includes('Chicken breast'), meals.items[0].foods.join(','));

    await page.getByRole('link', { name: 'Recipes' }).first().click();
    await page.getByRole('tab', { name: 'My Recipes' }).click();
    await page.getByRole('button', { name: `Delete ${firstTitle}` }).click();
    await page.getByRole('dialog', { name: 'Delete recipe?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('Recipe deleted').waitFor();
    await page.getByText('No recipes saved yet').waitFor();

    // The family's own dish, typed in: missing parts are named at the field.
    await page.getByRole('button', { name: 'Add Your Own Recipe' }).click();
    const own = page.getByRole('dialog', { name: 'Add Your Own Recipe' });
    await own.getByRole('button', { name: 'Save Recipe' }).click();
    await own.getByText('Please enter a title').waitFor();
    await own.getByLabel('Title').fill("Granny's lentil soup");
    await own.getByLabel('Ingredients').fill('200 g red lentils\n2 carrots\nSalt');
    await own.getByLabel('Steps').fill('Rinse the lentils.\nSimmer with the carrots for 20 minutes.');
    await own.getByRole('button', { name: 'Save Recipe' }).click();
    await page.getByText('Recipe saved successfully! 🎉').waitFor();
    const mine = page.getByRole('list', { name: 'My recipes' }).getByRole('listitem').filter({ hasText: "Granny's lentil soup" });
    await mine.getByText('Our own recipe').waitFor();
    const saved = await (await page.request.get(`${api}/recipes`)).json();
    assert.deepEqual(saved[0].ingredients[0], { name: 'red lentils', quantity: '200 g' });
    assert.equal(saved[0].instructions.length, 2);
  } finally {
    await server.stop();
  }
});

test('a visitor sees live progress from a slow model and is asked to log in to save', async () => {
  const fake = await startFakeOllama();
  const server = await startServer({
    HIGHCHAIR_RECIPES_GENERATOR: 'ollama',
    HIGHCHAIR_RECIPES_OLLAMA_URL: fake.url,
    HIGHCHAIR_RECIPES_OLLAMA_MODEL: 'slow',
    HIGHCHAIR_RECIPES_TIMEOUT_SECS: '60',
  });
  try {
    const page = await openPage(browser, server.url, PHONE);
    await page.goto(`${server.url}/recipes`);
    await page.getByRole('tab', { name: 'My Recipes' }).click();
    await page.getByText('Sign in to save your favorite recipes!').waitFor();
    await page.getByRole('tab', { name: 'Create Recipe' }).click();
    await page.getByRole('tab', { name: 'Grains' }).click();
    await page.getByRole('button', { name: 'Basmati rice' }).click();
    await page.getByRole('button', { name: 'Generate Recipes' }).click();
    await page.getByText('Creating your chef-quality recipes...').waitFor();
    // Progress moves while the model streams, and the form is disabled meanwhile.
    const progress = page.getByRole('progressbar', { name: 'Progress' });
    await page.waitForFunction(() => Number(document.querySelector('progress')?.value ?? 0) > 0);
    const seen = Number(await progress.getAttribute('value'));
    assert.ok(seen > 0 && seen < 100, `progress ${seen}`);
    assert.ok(await page.getByLabel('Servings').isDisabled());
    await screenshot(page, 'recipes-progress', { fullPage: false });
    await page.getByText('Option 1 of 3').waitFor({ timeout: 15_000 });
    await page.getByRole('link', { name: 'Log in to save recipe' }).waitFor();
  } finally {
    await server.stop();
    await fake.stop();
  }
});
