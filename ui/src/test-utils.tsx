import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { vi } from 'vitest';

import { AuthProvider } from './auth/AuthProvider';
import { ToastProvider } from './components/ui/Toast';

/** Shows the current path, so tests can see where navigation went. */
export function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname}</div>;
}

/** Renders inside the app's providers at `path`, with a fresh SWR cache. */
export function renderAt(ui: ReactElement, path = '/') {
  return render(
    <SWRConfig
      value={{ provider: () => new Map(), shouldRetryOnError: false, dedupingInterval: 0 }}
    >
      <ToastProvider>
        <AuthProvider>
          <MemoryRouter initialEntries={[path]}>
            {ui}
            <LocationProbe />
          </MemoryRouter>
        </AuthProvider>
      </ToastProvider>
    </SWRConfig>,
  );
}

/** Renders `routes` (path -> element) as the app would, starting at `path`. */
export function renderRoutes(table: Record<string, ReactElement>, path: string) {
  return renderAt(
    <Routes>
      {Object.entries(table).map(([p, element]) => (
        <Route key={p} path={p} element={element} />
      ))}
    </Routes>,
    path,
  );
}

type Answer = { status: number; body: unknown };

export const site = {
  version: '0',
  allowSignup: true,
  signupOpen: true,
  allowGuests: true,
  currency: 'GBP',
  groceryItemEstimate: 2.5,
  contactEmail: '',
};

export const signedOut: Answer = {
  status: 401,
  body: {
    title: 'Authentication required',
    message: 'You must be logged in to continue',
    field: null,
  },
};

export const amira = {
  id: 'u1',
  email: 'amira@example.org',
  firstName: 'Amira',
  lastName: 'Khan',
  role: 'mom',
  isGuest: false,
  isAdmin: true,
  avatarUrl: null,
  version: 1,
};

/** What the session probe answers when nobody is signed in. */
export const noSession: Answer = {
  status: 200,
  body: { user: null, expiresAt: null },
};

export const signedIn: Answer = {
  status: 200,
  body: { user: amira, expiresAt: '2030-01-01T00:00:00Z' },
};

/**
 * Replaces fetch with canned JSON answers keyed by "METHOD /path". A visitor is signed out and
 * the site is open unless the test says otherwise. Returns the mock to inspect calls.
 */
export function mockApi(answers: Record<string, Answer | ((request: Request) => Answer)> = {}) {
  const table: Record<string, Answer | ((request: Request) => Answer)> = {
    'GET /api/auth/session': noSession,
    'GET /api/site': { status: 200, body: site },
    ...answers,
  };
  const mock = vi.fn(async (request: Request) => {
    const url = new URL(request.url);
    const key = `${request.method} ${url.pathname}`;
    const entry = table[key];
    const answer = typeof entry === 'function' ? entry(request) : entry;
    const { status, body } = answer ?? {
      status: 404,
      body: { title: 'Not found', message: key, field: null },
    };
    return new Response(status === 204 ? null : JSON.stringify(body), {
      status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}

/** The requests a mock received with the given method and path. */
export function calls(mock: ReturnType<typeof mockApi>, method: string, path: string): Request[] {
  return mock.mock.calls
    .map(([r]) => r as Request)
    .filter((r) => r.method === method && new URL(r.url).pathname === path);
}

/** The JSON body of the first such request; fails the test if there was none. */
export async function sentBody(
  mock: ReturnType<typeof mockApi>,
  method: string,
  path: string,
): Promise<unknown> {
  const [request] = calls(mock, method, path);
  if (!request) throw new Error(`no ${method} ${path} was sent`);
  return request.json();
}
