import i18n from 'i18next';
import createClient from 'openapi-fetch';

import { currentLanguage } from '../i18n';
import type { components, paths } from './schema';

/** The typed API client. Types are generated from the server's OpenAPI document. */
export const api = createClient<paths>({
  baseUrl: `${globalThis.location?.origin ?? ''}/api`,
  credentials: 'same-origin',
  // Looked up per call, so tests can replace `fetch`.
  fetch: (request: Request) => globalThis.fetch(request),
});

// The server words its messages (errors, warnings, generated recipes) in the UI's language.
api.use({
  onRequest({ request }) {
    request.headers.set('Accept-Language', currentLanguage());
    return request;
  },
});

export type Schemas = components['schemas'];
export type ErrorBody = Schemas['ErrorBody'];

/** The media type poem-openapi documents for JSON bodies. */
type Json = 'application/json; charset=utf-8';

/** An API failure carrying the server's `{title, message, field}` and the whole parsed body. */
export class ApiFailure extends Error {
  readonly status: number;
  readonly title: string;
  /** The title in English whatever the language: what a screen may act on. */
  readonly code: string;
  readonly field: string | undefined;
  /** The error body as the server sent it (a 409 also carries `current`: see `savedElsewhere`). */
  readonly body: unknown;

  constructor(
    status: number,
    body: Partial<ErrorBody> | undefined,
    fallbackTitle: string,
    raw: unknown = body,
  ) {
    super(body?.message ?? i18n.t('common.unexpectedError'));
    this.status = status;
    this.title = body?.title ?? fallbackTitle;
    this.code = body?.code ?? body?.title ?? fallbackTitle;
    this.field = body?.field ?? undefined;
    this.body = raw;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

function isErrorBody(value: unknown): value is ErrorBody {
  return isRecord(value) && 'title' in value && 'message' in value;
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
    throw new ApiFailure(0, { message: i18n.t('common.tryAgainLater') }, fallbackTitle);
  }
  if (result.response.ok) {
    return result.data as T;
  }
  const body = isErrorBody(result.error) ? result.error : undefined;
  throw new ApiFailure(result.response.status, body, fallbackTitle, result.error);
}

/** The records a stale update (409 `ConflictBody`) can carry as `current`. */
type Conflicts = {
  child: Schemas['ChildDto'];
  meal: Schemas['MealDto'];
  profile: Schemas['Profile'];
  groceryList: Schemas['GroceryListDto'];
  familySettings: Schemas['FamilySettingsDto'];
};

/** The server's `current` is a union (`Current`); each noun is told apart by a field only it has. */
type Current = NonNullable<Schemas['ConflictBody']['current']>;

/** A field only that noun's record has, to tell the records apart at run time. */
const CONFLICT_MARK: { [K in keyof Conflicts]: keyof Conflicts[K] & string } = {
  child: 'allergies',
  meal: 'foods',
  profile: 'email',
  groceryList: 'estimatedTotal',
  familySettings: 'allergenLists',
};

/**
 * The record as saved now, when an update was refused because it was changed elsewhere first
 * (409 with `current`); undefined for any other failure.
 */
export function savedElsewhere<K extends keyof Conflicts>(
  err: unknown,
  noun: K,
): Conflicts[K] | undefined {
  if (!(err instanceof ApiFailure) || err.status !== 409 || !isRecord(err.body)) return undefined;
  const current = err.body.current as Current | undefined;
  if (!isRecord(current) || typeof current.version !== 'number') return undefined;
  if (!(CONFLICT_MARK[noun] in current)) return undefined;
  return current as Conflicts[K];
}

/** What each upload answers on success, per the OpenAPI document. */
type Uploads = {
  '/media': paths['/media']['post']['responses'][201]['content'][Json];
  '/profile/avatar': paths['/profile/avatar']['put']['responses'][200]['content'][Json];
};

const UPLOAD_METHOD: { [P in keyof Uploads]: 'POST' | 'PUT' } = {
  '/media': 'POST',
  '/profile/avatar': 'PUT',
};

/** Uploads one image as multipart field `file` (openapi-fetch does not build multipart bodies). */
export async function uploadImage<P extends keyof Uploads>(
  path: P,
  file: Blob,
  fallbackTitle: string,
  signal?: AbortSignal,
): Promise<Uploads[P]> {
  const form = new FormData();
  form.append('file', file, file instanceof File ? file.name : 'photo');
  let response: Response;
  try {
    response = await globalThis.fetch(
      new Request(`${globalThis.location?.origin ?? ''}/api${path}`, {
        method: UPLOAD_METHOD[path],
        body: form,
        credentials: 'same-origin',
        headers: { 'Accept-Language': currentLanguage() },
        signal,
      }),
    );
  } catch {
    throw new ApiFailure(0, { message: i18n.t('common.tryAgainLater') }, fallbackTitle);
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    throw new ApiFailure(
      response.status,
      isErrorBody(body) ? body : undefined,
      fallbackTitle,
      body,
    );
  }
  return body as Uploads[P];
}
