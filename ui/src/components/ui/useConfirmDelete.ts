import { useState } from 'react';

import { useSubmit } from '../../hooks/useSubmit';
import { useToast, type ToastInput } from './toast-context';

export interface ConfirmDeleteOptions<T> {
  /** Deletes (or removes) what the dialog asked about. */
  remove: (target: T, signal: AbortSignal) => Promise<unknown>;
  /** The toast title for server and network failures (a refusal carries the server's own). */
  failureTitle: string;
  /** The success toast, in the spec's words for this thing. */
  done: (target: T) => Omit<ToastInput, 'variant'>;
  /** After the success toast, with the dialog closed: e.g. leave the page that showed it. */
  onDone?: (target: T) => void;
  /** Sees a failure first; return true when it has shown it (otherwise it is toasted). */
  onFailure?: (error: unknown) => unknown;
  /** A failure closes the dialog too (otherwise it stays open, to try again). */
  closeOnFailure?: boolean;
  /** Cancel also stops the request under way (otherwise it finishes, and only the dialog closes). */
  abortOnCancel?: boolean;
}

export interface ConfirmDelete<T> {
  /** What the dialog asks about; null while it is closed. */
  target: T | null;
  /** Opens the dialog for `target`. */
  ask: (target: T) => void;
  /** For `<ConfirmDialog {...dialog} title=... message=... confirmLabel=... />`. */
  dialog: { open: boolean; busy: boolean; onConfirm: () => void; onCancel: () => void };
}

/**
 * The one delete-with-confirmation flow: remember what is asked about, run the removal once
 * (busy meanwhile, failures as the spec's toast, see `useSubmit`), toast success and close.
 * The dialog's texts stay with the caller; they are the spec's, word for word.
 */
export function useConfirmDelete<T>({
  remove,
  failureTitle,
  done,
  onDone,
  onFailure,
  closeOnFailure = false,
  abortOnCancel = false,
}: ConfirmDeleteOptions<T>): ConfirmDelete<T> {
  const { toast } = useToast();
  const [target, setTarget] = useState<T | null>(null);
  const removal = useSubmit(
    async (signal): Promise<{ removed: T } | null> => {
      if (target === null) return null;
      await remove(target, signal);
      return { removed: target };
    },
    {
      failureTitle,
      onSuccess: (result) => {
        if (!result) return;
        toast({ variant: 'success', ...done(result.removed) });
        setTarget(null);
        onDone?.(result.removed);
      },
      onFailure: (error) => {
        const shown = onFailure?.(error);
        if (closeOnFailure) setTarget(null);
        return shown;
      },
    },
  );

  return {
    target,
    ask: (asked) => setTarget(() => asked),
    dialog: {
      open: target !== null,
      busy: removal.busy,
      onConfirm: () => void removal.run(),
      onCancel: () => {
        if (abortOnCancel) removal.cancel();
        setTarget(null);
      },
    },
  };
}
