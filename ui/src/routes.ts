import table from './routes.json';

/**
 * The UI's pages. The same table is embedded in the server, which answers 404 for any other path
 * (and logs it), so both sides always agree on what exists.
 */
export const routes = table;

export type RouteName = keyof typeof routes;

/** A route pattern with its `:params` filled in. */
export function pathTo(pattern: string, params: Record<string, string> = {}): string {
  return pattern.replace(/:([A-Za-z]+)/g, (_, name: string) =>
    encodeURIComponent(params[name] ?? ''),
  );
}
