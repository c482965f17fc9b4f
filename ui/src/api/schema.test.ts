// @vitest-environment node
import { readFileSync } from 'node:fs';

import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';

/**
 * schema.d.ts must be what openapi-typescript makes of openapi.json. (The Rust tests check that
 * openapi.json is what the server serves.) Regenerate both with `scripts/gen-api`.
 */
describe('generated API types', () => {
  it('match openapi.json', async () => {
    const spec = new URL('./openapi.json', import.meta.url);
    const generated = astToString(await openapiTS(spec));
    const committed = readFileSync(new URL('./schema.d.ts', import.meta.url), 'utf8');
    const body = (text: string) => text.slice(text.indexOf('export interface paths'));
    expect(body(committed).trim(), 'run scripts/gen-api to refresh src/api/schema.d.ts').toBe(
      body(generated).trim(),
    );
  });
});
