/**
 * The rules the server checks and the forms check too, as the server states them:
 * `rules.json` is what `GET /api/site` serves as `rules` (`highchair openapi --rules`; the Rust
 * tests fail while it is stale, and `scripts/gen-api` refreshes it). The UI is built into the
 * same binary, so this copy is the running server's.
 */
import type { components } from './schema';
import served from './rules.json';

export type Rules = components['schemas']['Rules'];

export const rules: Rules = served;
