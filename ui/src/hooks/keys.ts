/**
 * SWR keys, one factory per noun. Every key is an array whose first element is its noun, so code
 * that knows only the noun (a mutation, the change feed) reaches every key of it: see
 * `revalidate` in ./revalidate.ts.
 */
function keyFactories<
  T extends { [N in keyof T]: (...args: never[]) => readonly [N, ...(string | number)[]] },
>(factories: T): T {
  return factories;
}

export const keys = keyFactories({
  site: () => ['site'] as const,
  session: () => ['session'] as const,
  resetLink: (token: string) => ['resetLink', token] as const,
  family: () => ['family'] as const,
  /** The family's shared settings (the allergen list). */
  familySettings: () => ['familySettings'] as const,
  invitePreview: (token: string) => ['invitePreview', token] as const,
  children: () => ['children'] as const,
  child: (id: string) => ['child', id] as const,
  /** A child's food history. */
  foods: (childId: string) => ['foods', childId] as const,
  deletePreview: (childId: string) => ['deletePreview', childId] as const,
  /** A child's allergen introduction. */
  allergens: (childId: string) => ['allergens', childId] as const,
  /** What foods (as JSON) mean for a child: allergens, choking, age rules. */
  foodCheck: (childId: string, foods: string) => ['foodCheck', childId, foods] as const,
  /** A meal list's first page; useSWRInfinite stores the list under `$inf$` + this key. */
  meals: (childId: string | null, limit: number) => ['meals', childId ?? 'all', limit] as const,
  /** The built-in ingredient catalogue (the same for everyone). */
  ingredients: () => ['ingredients'] as const,
  /** The catalogue ingredients a request's allergies and restrictions would leave out. */
  leftOut: (signedIn: string, allergies: string, restrictions: string) =>
    ['leftOut', signedIn, allergies, restrictions] as const,
  /** The family's saved recipes, and one of them. */
  recipes: () => ['recipes'] as const,
  recipe: (id: string) => ['recipe', id] as const,
  /** The family's grocery lists, and one of them (the print view). */
  groceryLists: () => ['groceryLists'] as const,
  groceryList: (id: string) => ['groceryList', id] as const,
  /** Items being written (name and quantity pairs, as JSON), estimated by the server. */
  groceryEstimate: (items: string) => ['groceryEstimate', items] as const,
  /** A week of the meal plan ("2026-W48"). */
  mealPlan: (week: string) => ['mealPlan', week] as const,
  /** The family's co-parents (the owner's view: states, PIN set, expiry, links). */
  coParents: () => ['coParents'] as const,
});

export type Noun = keyof typeof keys;
export type Key = ReturnType<(typeof keys)[Noun]>;

/** The family's data: what a sign-in, a resync of the change feed or a restore can change. */
export const FAMILY_NOUNS = [
  'session',
  'family',
  'familySettings',
  'children',
  'child',
  'meals',
  'foods',
  'foodCheck',
  'allergens',
  'recipes',
  'recipe',
  'groceryLists',
  'groceryList',
  'mealPlan',
  'coParents',
] as const satisfies Noun[];
