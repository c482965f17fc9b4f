import { useCallback, useEffect, useLayoutEffect, useRef, useState, type FormEvent } from 'react';

import type { Problem } from '../lib/validation';
import { useFailure } from './useFailure';

/** Messages by field name. */
export type FieldErrors = Partial<Record<string, string>>;

/** What a check before sending found: a toast (and the field to mark), or messages under fields. */
export type CheckResult = Problem | { fields: FieldErrors } | null;

export interface SubmitOptions<R> {
  /** The toast title for server and network failures; client errors carry the server's own. */
  failureTitle: string;
  /** Runs before anything is sent; what it finds is shown and nothing is sent. */
  check?: () => CheckResult;
  /** After a success, unless the submit was cancelled or the form has gone. */
  onSuccess?: (result: R) => void;
  /**
   * Sees every failure first (not after a cancel or unmount). Return true when it has shown the
   * failure itself; otherwise it is toasted and its field marked.
   */
  onFailure?: (error: unknown, show: { setFieldErrors: (errors: FieldErrors) => void }) => unknown;
}

export interface Submit {
  /** For `<form onSubmit>`: no page load, then `run()`. */
  onSubmit: (event?: FormEvent) => void;
  /** Checks, then runs the action once at a time. Never rejects. */
  run: () => Promise<void>;
  busy: boolean;
  /** The last failure, until the next run. */
  error: unknown;
  /** Messages by field: from the check, or the field the server named. */
  fieldErrors: FieldErrors;
  clearFieldError: (field: string) => void;
  /** Aborts the request under way and forgets its result. */
  cancel: () => void;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  const problem = error as Problem | null;
  return problem && typeof problem.message === 'string' ? problem.message : '';
}

/**
 * The one submit behaviour of every form: busy while the action runs, failures as the spec's
 * toast with the field marked, an AbortSignal for the action, and nothing applied after a
 * cancel or once the form is gone (unmounting aborts).
 */
export function useSubmit<R>(
  action: (signal: AbortSignal) => Promise<R>,
  options: SubmitOptions<R>,
): Submit {
  const fail = useFailure();
  const latest = useRef({ action, options });
  useLayoutEffect(() => {
    latest.current = { action, options };
  });
  const running = useRef<AbortController | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});

  useEffect(
    () => () => {
      running.current?.abort();
      running.current = null;
    },
    [],
  );

  const show = useCallback(
    (failure: unknown, title: string) => {
      const field = fail(failure, title);
      setFieldErrors(field ? { [field]: messageOf(failure) } : {});
    },
    [fail],
  );

  const run = useCallback(async () => {
    if (running.current) return;
    const { action, options } = latest.current;
    const found = options.check?.() ?? null;
    if (found) {
      if ('fields' in found) setFieldErrors(found.fields);
      else {
        show(found, options.failureTitle);
        const more = Object.fromEntries((found.also ?? []).map((f) => [f, found.message]));
        setFieldErrors((all) => ({ ...all, ...more }));
      }
      return;
    }
    const controller = new AbortController();
    running.current = controller;
    setBusy(true);
    setError(undefined);
    setFieldErrors({});
    try {
      const result = await action(controller.signal);
      if (controller.signal.aborted) return;
      options.onSuccess?.(result);
    } catch (err) {
      if (controller.signal.aborted) return;
      setError(err);
      if (options.onFailure?.(err, { setFieldErrors }) !== true) show(err, options.failureTitle);
    } finally {
      if (running.current === controller) {
        running.current = null;
        setBusy(false);
      }
    }
  }, [show]);

  const cancel = useCallback(() => {
    running.current?.abort();
    running.current = null;
    setBusy(false);
  }, []);

  const clearFieldError = useCallback((field: string) => {
    setFieldErrors((all) => {
      if (!(field in all)) return all;
      return Object.fromEntries(Object.entries(all).filter(([name]) => name !== field));
    });
  }, []);

  return {
    onSubmit: (event) => {
      event?.preventDefault();
      void run();
    },
    run,
    busy,
    error,
    fieldErrors,
    clearFieldError,
    cancel,
  };
}
