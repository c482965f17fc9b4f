import { routes } from '../../routes';

/**
 * The feature links shown in the header and the mobile menu; `labelKey` is the label's key in
 * the catalogues (looked up when shown, in the language chosen then).
 */
export const featureLinks = [
  { to: routes.mealTracker, labelKey: 'shell.nav.mealTracker' },
  { to: routes.recipes, labelKey: 'shell.nav.recipes' },
  { to: routes.groceryList, labelKey: 'shell.nav.groceryList' },
  // Beyond the spec's three: the week's plan (issue 13).
  { to: routes.mealPlan, labelKey: 'shell.nav.mealPlan' },
] as const;

export const accountLinks = [
  { to: routes.login, labelKey: 'shell.nav.logIn', primary: false },
  { to: routes.signup, labelKey: 'shell.nav.signUp', primary: true },
] as const;
