import { X } from 'lucide-react';
import { useCallback, useMemo, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { ToastContext, type ToastInput } from './toast-context';

interface ShownToast extends ToastInput {
  id: number;
}

const DISMISS_AFTER_MS = 5000;

const STYLE = { success: 'alert-success', info: 'alert-info', error: 'alert-error' } as const;

/** Shows toasts (spec section 8): destructive unless marked as a success or a note. */
export function ToastProvider({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const [toasts, setToasts] = useState<ShownToast[]>([]);
  const next = useRef(1);

  const dismiss = useCallback((id: number) => {
    setToasts((all) => all.filter((t) => t.id !== id));
  }, []);

  const toast = useCallback(
    (input: ToastInput) => {
      const id = next.current++;
      // A success says the last failure is over: its toast goes.
      setToasts((all) => [
        ...(input.variant === 'success' ? all.filter((t) => t.variant === 'success') : all).slice(
          -2,
        ),
        { ...input, id },
      ]);
      window.setTimeout(() => dismiss(id), input.durationMs ?? DISMISS_AFTER_MS);
    },
    [dismiss],
  );

  const value = useMemo(() => ({ toast }), [toast]);

  return (
    <ToastContext.Provider value={value}>
      {children}
      {/* At the top on a phone: at the bottom they covered the buttons a thumb reaches for
          (a form's submit button, a sheet's Save). */}
      <div className="toast toast-top toast-center z-[100] w-full max-w-md px-3 sm:toast-bottom sm:toast-end">
        {toasts.map((shown) => (
          <div
            key={shown.id}
            role={shown.variant === 'success' || shown.variant === 'info' ? 'status' : 'alert'}
            className={`alert shadow-lg ${STYLE[shown.variant ?? 'error']} items-start`}
          >
            <div className="flex-1 text-left">
              <p className="font-semibold">{shown.title}</p>
              {shown.description ? <p className="text-sm opacity-90">{shown.description}</p> : null}
            </div>
            <button
              type="button"
              className="btn btn-ghost btn-xs btn-circle"
              aria-label={t('common.dismiss')}
              onClick={() => dismiss(shown.id)}
            >
              <X size={14} aria-hidden />
            </button>
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}
