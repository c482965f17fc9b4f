// Serves the recipe pages of tests/fixtures/recipe-pages on a free loopback port, as sites serve
// them (tests/support/recipe_pages.rs, built as the `recipe_pages` example): `/blocked` answers
// 403 as a bot wall does, `/images/NAME.jpg` is a picture.
import { startExample } from './example.mjs';

export function startRecipePages() {
  return startExample('recipe_pages', process.env.RECIPE_PAGES_BIN);
}
