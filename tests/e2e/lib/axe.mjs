// axe-core in a playwright page: the accessibility gate of the browser tests.
import axe from 'axe-core';

/** The impacts that fail the gate; 'minor' and 'moderate' findings are left to review. */
export const BLOCKING = new Set(['serious', 'critical']);

/**
 * Runs axe-core on the page as it is now and returns the serious and critical violations.
 *
 * The source is evaluated through the DevTools protocol rather than added as a <script>, so the
 * server's Content-Security-Policy (script-src 'self') does not block it and stays unchanged.
 */
export async function axeViolations(page, { include, exclude } = {}) {
  await settle(page);
  const loaded = await page.evaluate(() => typeof window.axe === 'object');
  if (!loaded) await page.evaluate(axe.source);
  const results = await page.evaluate(
    async ({ include, exclude }) => {
      const context = include || exclude ? { include: include ?? [document], exclude } : document;
      const run = await window.axe.run(context, { resultTypes: ['violations'] });
      return run.violations.map((v) => ({
        id: v.id,
        impact: v.impact,
        help: v.help,
        helpUrl: v.helpUrl,
        nodes: v.nodes.map((n) => ({
          target: n.target.map((t) => (Array.isArray(t) ? t.join(' >>> ') : t)).join(' '),
          summary: n.failureSummary ?? '',
          html: n.html,
        })),
      }));
    },
    { include, exclude },
  );
  return results.filter((v) => BLOCKING.has(v.impact));
}

/** The violations as text a person can act on: rule, impact, help, and every element hit. */
export function formatViolations(violations) {
  return violations
    .map((v) => {
      const nodes = v.nodes
        .map((n) => {
          const why = n.summary
            .split('\n')
            .map((l) => l.trim())
            .filter((l) => l && !l.startsWith('Fix any of the following') && !l.startsWith('Fix all of the following'))
            .join('; ');
          return `    - ${n.target}\n      ${n.html.slice(0, 160)}${why ? `\n      ${why}` : ''}`;
        })
        .join('\n');
      return `  ${v.id} [${v.impact}] ${v.help}\n    ${v.helpUrl}\n${nodes}`;
    })
    .join('\n');
}

/**
 * Throws when the page has serious or critical violations, naming the screen, so one failure
 * says everything that is wrong with it.
 */
export async function assertAccessible(page, screen, options) {
  const violations = await axeViolations(page, options);
  if (violations.length > 0) {
    const width = page.viewportSize()?.width;
    throw new Error(`${screen} at ${width}px: ${violations.length} serious or critical accessibility violation(s)\n${formatViolations(violations)}`);
  }
}

/**
 * Waits for fonts and for every finite CSS animation or transition (a dialog fading in, a toast
 * sliding up) so colour contrast is measured on the final colours, not halfway through a fade.
 * Infinite ones (spinners) are skipped.
 */
async function settle(page) {
  await page.evaluate(async () => {
    await document.fonts.ready;
    const finite = document
      .getAnimations()
      .filter((a) => Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity));
    await Promise.all(finite.map((a) => a.finished.catch(() => undefined)));
  });
}
