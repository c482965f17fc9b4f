import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { SWRConfig } from 'swr';
import { vi } from 'vitest';

import { ToastProvider } from './components/ui/Toast';

/** Renders inside the app's providers at `path`, with a fresh SWR cache. */
export function renderAt(ui: ReactElement, path = '/') {
  return render(
    <SWRConfig value={{ provider: () => new Map(), shouldRetryOnError: false }}>
      <ToastProvider>
        <MemoryRouter initialEntries={[path]}>{ui}</MemoryRouter>
      </ToastProvider>
    </SWRConfig>,
  );
}

/** Replaces fetch with a router of canned JSON answers; returns the mock to inspect calls. */
export function mockApi(answers: Record<string, { status: number; body: unknown }>) {
  const mock = vi.fn(async (request: Request) => {
    const url = new URL(request.url);
    const key = `${request.method} ${url.pathname}`;
    const answer = answers[key];
    if (!answer) {
      return new Response(JSON.stringify({ title: 'Not found', message: key, field: null }), {
        status: 404,
        headers: { 'content-type': 'application/json' },
      });
    }
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', mock);
  return mock;
}
