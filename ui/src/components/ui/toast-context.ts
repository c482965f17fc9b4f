import { createContext, useContext } from 'react';

export interface ToastInput {
  title: string;
  description?: string;
  /** Toasts are destructive unless they report a success, or are a note ('info'). */
  variant?: 'success' | 'info' | 'error';
  durationMs?: number;
}

export const ToastContext = createContext<{ toast: (t: ToastInput) => void } | null>(null);

export function useToast() {
  const context = useContext(ToastContext);
  if (!context) {
    throw new Error('useToast must be used inside <ToastProvider>');
  }
  return context;
}
