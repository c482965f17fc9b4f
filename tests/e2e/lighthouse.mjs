// Lighthouse (mobile emulation, simulated throttling) on the landing page, the meal tracker, a
// child's food history, the grocery list and the meal plan of a family with some weeks of
// data. Prints the scores, writes artifacts/lighthouse.json and exits non-zero when
// performance, accessibility or best practices is below LIGHTHOUSE_MIN (default 90) on a page.
//
//   CHROME_PATH=/usr/bin/chromium HIGHCHAIR_BIN=../../target/release/highchair npm run lighthouse
//
// LIGHTHOUSE_RUNS (default 3) runs per page; the median is reported, and the median run's full
// report is kept in artifacts/lighthouse/<page>.json (open it in https://googlechrome.github.io/lighthouse/viewer/
// or read it with jq).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

import { ARTIFACTS } from './lib/browser.mjs';
import { startServer } from './lib/server.mjs';

const MIN = Number(process.env.LIGHTHOUSE_MIN ?? 90);
const RUNS = Math.max(1, Number(process.env.LIGHTHOUSE_RUNS ?? 3));
const CHROME = process.env.CHROME_PATH ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// LIGHTHOUSE_PAGES=tracker,plan audits only the pages whose names contain one of the words.
const ONLY = process.env.LIGHTHOUSE_PAGES?.toLowerCase().split(',').filter(Boolean);
const GATED = ['performance', 'accessibility', 'best-practices'];
const CATEGORIES = [...GATED, 'seo'];

const PARENT = {
  firstName: 'Amira',
  lastName: 'Khan',
  email: 'amira@example.org',
  password: 'correct horse',
  role: 'mom',
  acceptTerms: true,
};

/** A JSON call to the API as the signed-in parent; fails on anything but the expected status. */
function client(base) {
  let cookie = '';
  const call = async (method, path, body, expected) => {
    const r = await fetch(`${base}/api${path}`, {
      method,
      headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await r.text();
    if (r.status !== expected) throw new Error(`${method} ${path}: ${r.status} ${text}`);
    const set = r.headers.getSetCookie().find((c) => c.startsWith('highchair_session='));
    if (set) cookie = set.split(';')[0];
    return text ? JSON.parse(text) : null;
  };
  return { call, cookie: () => cookie };
}

/** The ISO week ("2026-W48") of a date, in UTC like the server. */
function isoWeek(date) {
  const d = new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), date.getUTCDate()));
  const day = d.getUTCDay() || 7;
  d.setUTCDate(d.getUTCDate() + 4 - day);
  const yearStart = Date.UTC(d.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((d - yearStart) / 86_400_000 + 1) / 7);
  return `${d.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** A family with three children, four weeks of meals, saved recipes, a plan and a grocery list. */
async function seed(base) {
  const api = client(base);
  await api.call('POST', '/auth/signup', PARENT, 201);
  const children = [];
  for (const child of [
    { name: 'Emma', age: 4, allergies: ['Milk'] },
    { name: 'Noah', age: 2, dietaryRestrictions: ['Vegetarian'] },
    { name: 'Lily', birthMonth: monthsAgo(10) },
  ]) {
    children.push(await api.call('POST', '/children', child, 201));
  }

  const menus = {
    Breakfast: [['Porridge', 'Banana'], ['Toast', 'Scrambled eggs'], ['Yoghurt', 'Blueberries'], ['Pancakes']],
    'Morning Snack': [['Apple slices'], ['Rice cakes'], ['Pear']],
    Lunch: [['Pasta', 'Tomato sauce'], ['Cheese sandwich', 'Cucumber'], ['Lentil soup', 'Bread'], ['Omelette']],
    'Afternoon Snack': [['Carrot sticks', 'Hummus'], ['Grapes'], ['Crackers']],
    Dinner: [['Chicken', 'Rice', 'Broccoli'], ['Fish pie', 'Peas'], ['Vegetable curry', 'Rice'], ['Shepherd\'s pie']],
  };
  const portions = ['full', 'half', 'seconds', 'full', 'none'];
  const moods = ['happy', 'happy', 'neutral', 'sad'];
  const types = Object.keys(menus);
  let n = 0;
  const now = Date.now();
  for (let day = 27; day >= 0; day -= 1) {
    for (const [t, type] of types.entries()) {
      // About two meals a day per child, at their usual time.
      if ((day + t) % 2 === 1) continue;
      for (const [c, child] of children.entries()) {
        if (c === 2 && type.includes('Snack')) continue;
        const when = new Date(now - day * 86_400_000);
        when.setUTCHours(7 + t * 3, 15, 0, 0);
        if (when.getTime() > now) when.setTime(now - 60_000 * (t + 1));
        const foods = menus[type][(day + c) % menus[type].length];
        await api.call('POST', '/meals', {
          childId: child.id,
          mealType: type,
          foods,
          portion: portions[(day + t + c) % portions.length],
          mood: moods[(day + c) % moods.length],
          notes: n % 7 === 0 ? 'Ate it all, asked for more.' : '',
          mealDate: when.toISOString(),
        }, 201);
        n += 1;
      }
    }
  }

  const recipes = [];
  for (const recipe of [
    {
      title: 'Pasta bake',
      ingredients: [
        ['Penne', '300 g'], ['Cheddar cheese', '100 g'], ['Passata', '500 g'], ['Courgette', '1'], ['Onion', '1'],
      ],
      instructions: ['Boil the penne.', 'Soften the onion and courgette, add the passata.', 'Mix, top with cheese, bake 20 minutes.'],
      servings: 4,
    },
    {
      title: 'Lentil and carrot soup',
      ingredients: [['Red lentils', '200 g'], ['Carrots', '3'], ['Vegetable stock', '1 l'], ['Cumin', '1 tsp']],
      instructions: ['Chop the carrots.', 'Simmer everything for 25 minutes.', 'Blend until smooth.'],
      servings: 4,
    },
    {
      title: 'Banana oat pancakes',
      ingredients: [['Bananas', '2'], ['Oats', '100 g'], ['Eggs', '2']],
      instructions: ['Blend everything.', 'Cook small pancakes in a hot pan.'],
      servings: 2,
    },
  ]) {
    recipes.push(
      await api.call('POST', '/recipes', {
        source: 'own',
        title: recipe.title,
        description: '',
        ingredients: recipe.ingredients.map(([name, quantity]) => ({ name, quantity })),
        instructions: recipe.instructions,
        preparationTime: 15,
        servings: recipe.servings,
      }, 201),
    );
  }

  const week = isoWeek(new Date());
  const plan = await api.call('GET', `/meal-plan?week=${week}`, undefined, 200);
  const entries = plan.days.flatMap((date, i) => [
    { date, mealType: 'Breakfast', recipeId: recipes[2].id, servings: 3 },
    i % 3 === 2
      ? { date, mealType: 'Dinner', text: 'Leftovers', childIds: [children[0].id, children[1].id] }
      : { date, mealType: 'Dinner', recipeId: recipes[i % 2].id, servings: 4 },
    ...(i % 2 === 0 ? [{ date, mealType: 'Lunch', text: 'Sandwiches and fruit' }] : []),
  ]);
  await api.call('PUT', `/meal-plan?week=${week}`, { version: plan.version, entries }, 200);

  const items = [
    ['Bananas', '6', 'Produce'], ['Apples', '1 kg', 'Produce'], ['Blueberries', '2 punnets', 'Produce'],
    ['Pears', '4', 'Produce'], ['Grapes', '500 g', 'Produce'], ['Carrots', '1 kg', 'Produce'],
    ['Broccoli', '2', 'Produce'], ['Cucumber', '1', 'Produce'], ['Courgettes', '2', 'Produce'],
    ['Onions', '1 kg', 'Produce'], ['Peas', '1 bag', 'Frozen'], ['Milk', '4 pints', 'Dairy'],
    ['Cheddar cheese', '400 g', 'Dairy'], ['Yoghurt', '6 pots', 'Dairy'], ['Butter', '250 g', 'Dairy'],
    ['Eggs', '12', 'Dairy'], ['Chicken thighs', '1 kg', 'Meat & Seafood'], ['Salmon fillets', '4', 'Meat & Seafood'],
    ['Bread', '2 loaves', 'Bakery'], ['Rice cakes', '2 packs', 'Snacks'], ['Crackers', '1 box', 'Snacks'],
    ['Penne', '500 g', 'Dry Goods & Pasta'], ['Rice', '1 kg', 'Dry Goods & Pasta'], ['Red lentils', '500 g', 'Dry Goods & Pasta'],
    ['Oats', '1 kg', 'Dry Goods & Pasta'], ['Passata', '2 jars', 'Canned Goods'], ['Hummus', '1 tub', 'Condiments & Spices'],
    ['Orange juice', '1 l', 'Beverages'], ['Nappies', '1 pack', 'Baby'], ['Baby wipes', '2 packs', 'Baby'],
  ];
  const list = await api.call('POST', '/grocery-lists', {
    name: 'Weekly shop',
    items: items.map(([name, quantity, category], i) => ({ name, quantity, category, checked: i % 5 === 0 })),
  }, 201);

  return { cookie: api.cookie(), children, meals: n, recipes: recipes.length, list, week };
}

function monthsAgo(months) {
  const d = new Date();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - months);
  return d.toISOString().slice(0, 7);
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor((s.length - 1) / 2)];
};
const score = (lhr, id) => Math.round((lhr.categories[id]?.score ?? 0) * 100);

/** What cost points in a category: its weighted audits below full marks, and for performance
 * the diagnostics and insights that found something. */
function failing(lhr, id) {
  const category = lhr.categories[id];
  if (!category || category.score === 1) return [];
  const out = [];
  for (const ref of category.auditRefs) {
    const audit = lhr.audits[ref.id];
    if (!audit || audit.score === null || audit.score >= 1) continue;
    if (['notApplicable', 'informative', 'manual'].includes(audit.scoreDisplayMode)) continue;
    if (ref.weight === 0 && !(id === 'performance' && audit.score < 0.9)) continue;
    const value = audit.displayValue ? ` (${audit.displayValue})` : '';
    out.push(`${audit.title}${value}${ref.weight ? '' : ' [diagnostic]'}`);
  }
  return out;
}

const server = await startServer();
const profile = mkdtempSync(join(tmpdir(), 'highchair-lighthouse-'));
let chrome;
let exitCode = 0;
try {
  const started = Date.now();
  const data = await seed(server.url);
  console.log(
    `Seeded ${data.children.length} children, ${data.meals} meals, ${data.recipes} recipes, ` +
      `a ${data.list.items.length}-item grocery list and the plan of ${data.week} in ${Date.now() - started} ms`,
  );
  const pages = [
    { name: 'Landing page', path: '/', signedIn: false },
    { name: 'Meal tracker', path: '/meal-tracker', signedIn: true },
    { name: 'Food history', path: `/children/${data.children[0].id}/foods`, signedIn: true },
    { name: 'Grocery list', path: '/grocery-list', signedIn: true },
    { name: 'Meal plan', path: '/meal-plan', signedIn: true },
  ].filter((p) => !ONLY || ONLY.some((o) => p.name.toLowerCase().includes(o)));

  chrome = await chromeLauncher.launch({
    chromePath: CHROME,
    userDataDir: profile,
    chromeFlags: [
      '--headless=new',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });

  /** One Lighthouse run; a run whose trace Chrome garbled (NO_NAVSTART and the like) is retried. */
  const audit = async (url, cookie, name) => {
    for (let attempt = 1; ; attempt += 1) {
      const result = await lighthouse(url, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: CATEGORIES,
        // Signed in like the family's browser: the session cookie on every request.
        extraHeaders: cookie ? { Cookie: cookie } : undefined,
      });
      const error = result?.lhr.runtimeError;
      if (!error) return result;
      if (attempt === 3) throw new Error(`${name}: ${error.code} ${error.message}`);
      console.warn(`${name}: ${error.code}, running again`);
    }
  };

  // A first run warms the browser up (its first page load is slow and sometimes fails); not scored.
  await audit(`${server.url}/about`, null, 'Warm-up').catch((err) => console.warn(String(err)));

  const results = [];
  const about = {};
  for (const page of pages) {
    const url = `${server.url}${page.path}`;
    const runs = [];
    const traces = [];
    for (let i = 0; i < RUNS; i += 1) {
      const { lhr, artifacts } = await audit(url, page.signedIn ? data.cookie : null, page.name);
      const final = new URL(lhr.finalDisplayedUrl);
      if (final.pathname !== page.path) {
        throw new Error(`${page.name}: audited ${lhr.finalDisplayedUrl}, not ${url} (signed out?)`);
      }
      runs.push(lhr);
      traces.push(artifacts.Trace);
      about.lighthouse = lhr.lighthouseVersion;
      about.browser = lhr.environment.hostUserAgent;
    }
    // The run with the median performance stands for the page; the other categories barely vary.
    const perf = runs.map((lhr) => score(lhr, 'performance'));
    const chosen = runs[perf.indexOf(median(perf))];
    mkdirSync(join(ARTIFACTS, 'lighthouse'), { recursive: true });
    const slug = page.name.toLowerCase().replaceAll(' ', '-');
    writeFileSync(join(ARTIFACTS, 'lighthouse', `${slug}.json`), JSON.stringify(chosen));
    // The browser's trace of that run (open it in Chrome's Performance panel).
    writeFileSync(join(ARTIFACTS, 'lighthouse', `${slug}.trace.json`), JSON.stringify(traces[runs.indexOf(chosen)]));
    const scores = Object.fromEntries(CATEGORIES.map((c) => [c, median(runs.map((lhr) => score(lhr, c)))]));
    results.push({
      page: page.name,
      path: page.path.replace(data.children[0].id, ':id'),
      scores,
      performanceRuns: perf,
      metrics: Object.fromEntries(
        ['first-contentful-paint', 'largest-contentful-paint', 'total-blocking-time', 'cumulative-layout-shift', 'speed-index']
          .map((id) => [id, chosen.audits[id]?.displayValue ?? null]),
      ),
      failing: Object.fromEntries(CATEGORIES.map((c) => [c, failing(chosen, c)]).filter(([, f]) => f.length)),
    });
    console.log(`${page.name}: ${CATEGORIES.map((c) => `${c} ${scores[c]}`).join(', ')} (performance runs ${perf.join('/')})`);
  }

  const width = Math.max(...results.map((r) => r.page.length));
  console.log(`\n${'Page'.padEnd(width)}  Perf  A11y  Best  SEO*`);
  for (const r of results) {
    const cells = CATEGORIES.map((c) => String(r.scores[c]).padStart(4));
    console.log(`${r.page.padEnd(width)}  ${cells.join('  ')}`);
  }
  console.log(`* informational; the gate is performance, accessibility and best practices >= ${MIN}`);
  for (const r of results) {
    for (const [c, audits] of Object.entries(r.failing)) {
      console.log(`\n${r.page} — ${c} ${r.scores[c]}:`);
      for (const a of audits) console.log(`  - ${a}`);
    }
  }

  const below = results.flatMap((r) => GATED.filter((c) => r.scores[c] < MIN).map((c) => `${r.page} ${c} ${r.scores[c]}`));
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(
    join(ARTIFACTS, 'lighthouse.json'),
    `${JSON.stringify({
      date: new Date().toISOString(),
      ...about,
      runs: RUNS,
      minimum: MIN,
      results,
    }, null, 2)}\n`,
  );
  console.log(`\nWrote ${join(ARTIFACTS, 'lighthouse.json')} in ${Math.round((Date.now() - started) / 1000)} s`);
  if (below.length) {
    console.error(`\nBelow ${MIN}: ${below.join('; ')}`);
    exitCode = 1;
  }
} catch (err) {
  console.error(err);
  console.error(server.logs().split('\n').slice(-20).join('\n'));
  exitCode = 1;
} finally {
  chrome?.kill();
  await server.stop();
  rmSync(profile, { recursive: true, force: true });
}
process.exit(exitCode);
