import { routes } from '../../routes';

/** The feature links shown in the header and the mobile menu. */
export const featureLinks = [
  { to: routes.mealTracker, label: 'Meal Tracker' },
  { to: routes.recipes, label: 'Recipes' },
  { to: routes.groceryList, label: 'Grocery List' },
  // Beyond the spec's three: the week's plan (issue 13).
  { to: routes.mealPlan, label: 'Meal Plan' },
] as const;

export const accountLinks = [
  { to: routes.login, label: 'Log In', primary: false },
  { to: routes.signup, label: 'Sign Up', primary: true },
] as const;
