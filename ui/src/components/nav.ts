import { plannedRoutes } from '../routes';

/** The feature links shown in the header and the mobile menu. */
export const featureLinks = [
  { to: plannedRoutes.mealTracker, label: 'Meal Tracker' },
  { to: plannedRoutes.recipes, label: 'Recipes' },
  { to: plannedRoutes.groceryList, label: 'Grocery List' },
] as const;

export const accountLinks = [
  { to: plannedRoutes.login, label: 'Log In', primary: false },
  { to: plannedRoutes.signup, label: 'Sign Up', primary: true },
] as const;
