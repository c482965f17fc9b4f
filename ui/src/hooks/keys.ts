/** SWR keys, one factory per noun, so mutations can revalidate exactly what they changed. */
export const keys = {
  site: () => ['site'] as const,
  session: () => ['session'] as const,
  resetLink: (token: string) => ['reset-link', token] as const,
  children: () => ['children'] as const,
  meals: (childId: string | null, limit: number) => ['meals', childId ?? 'all', limit] as const,
};
