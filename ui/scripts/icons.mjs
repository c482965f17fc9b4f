// Draws the app's PNG icons (PWA manifest, home screens) from public/favicon.svg with Debian's
// Chromium, through the browser tests' playwright-core. Run once after changing the logo:
//   node ui/scripts/icons.mjs      (needs `npm ci` in tests/e2e and /usr/bin/chromium)
// The PNGs are committed; builds do not run this.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

const ui = join(import.meta.dirname, '..');
const require = createRequire(join(ui, '../tests/e2e/package.json'));
const { chromium } = require('playwright-core');

const logo = readFileSync(join(ui, 'public/favicon.svg'), 'utf8');
// The glyph alone, for icons whose shape the phone cuts (maskable) or rounds itself (Apple).
const glyph = logo.replace(/<rect[^>]*\/>/, '');

const ICONS = [
  { file: 'icon-192.png', size: 192, svg: logo, pad: 0 },
  { file: 'icon-512.png', size: 512, svg: logo, pad: 0 },
  // Maskable: a full-bleed background, the glyph inside the 80% safe zone.
  { file: 'icon-maskable-512.png', size: 512, svg: glyph, pad: 0.2, fill: '#bb3f00' },
  { file: 'apple-touch-icon.png', size: 180, svg: glyph, pad: 0.08, fill: '#bb3f00' },
];

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: ['--no-sandbox'],
});
try {
  for (const icon of ICONS) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    const inset = Math.round(icon.size * icon.pad);
    await page.setContent(
      `<html><body style="margin:0;background:${icon.fill ?? 'transparent'}">` +
        `<div style="position:absolute;inset:${inset}px">${icon.svg.replace('<svg ', '<svg width="100%" height="100%" ')}</div>` +
        `</body></html>`,
    );
    await page.screenshot({ path: join(ui, 'public', icon.file), omitBackground: !icon.fill });
    await page.close();
    console.log(`public/${icon.file}`);
  }
} finally {
  await browser.close();
}
