import createClient from 'openapi-fetch';

import type { components, paths } from './schema';

/** The typed API client. Types are generated from the server's OpenAPI document. */
export const api = createClient<paths>({
  baseUrl: `${globalThis.location?.origin ?? ''}/api`,
  credentials: 'same-origin',
  // Looked up per call, so tests can replace `fetch`.
  fetch: (request: Request) => globalThis.fetch(request),
});

export type Schemas = components['schemas'];
export type ErrorBody = Schemas['ErrorBody'];

/** An API failure carrying the server's `{title, message, field}`. */
export class ApiFailure extends Error {
  readonly status: number;
  readonly title: string;
  readonly field: string | undefined;

  constructor(status: number, body: Partial<ErrorBody> | undefined, fallbackTitle: string) {
    super(body?.message ?? 'An unexpected error occurred');
    this.status = status;
    this.title = body?.title ?? fallbackTitle;
    this.field = body?.field ?? undefined;
  }
}

function isErrorBody(value: unknown): value is ErrorBody {
  return typeof value === 'object' && value !== null && 'title' in value && 'message' in value;
}

/**
 * Unwraps an openapi-fetch result: the data, or an `ApiFailure` with the server's texts.
 * `fallbackTitle` is used when the server could not be reached or sent no error body.
 */
export async function unwrap<T>(
  call: Promise<{ data?: T; error?: unknown; response: Response }>,
  fallbackTitle: string,
): Promise<T> {
  let result: { data?: T; error?: unknown; response: Response };
  try {
    result = await call;
  } catch {
    throw new ApiFailure(0, { message: 'Please try again later.' }, fallbackTitle);
  }
  if (result.response.ok) {
    return result.data as T;
  }
  const body = isErrorBody(result.error) ? result.error : undefined;
  throw new ApiFailure(result.response.status, body, fallbackTitle);
}

/** Uploads one image as multipart field `file` (openapi-fetch does not build multipart bodies). */
export async function uploadImage<T>(
  path: '/media' | '/profile/avatar',
  file: Blob,
  fallbackTitle: string,
): Promise<T> {
  const form = new FormData();
  form.append('file', file, file instanceof File ? file.name : 'photo');
  let response: Response;
  try {
    response = await globalThis.fetch(
      new Request(`${globalThis.location?.origin ?? ''}/api${path}`, {
        method: path === '/media' ? 'POST' : 'PUT',
        body: form,
        credentials: 'same-origin',
      }),
    );
  } catch {
    throw new ApiFailure(0, { message: 'Please try again later.' }, fallbackTitle);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    throw new ApiFailure(response.status, isErrorBody(body) ? body : undefined, fallbackTitle);
  }
  return body as T;
}
