import type { ButtonHTMLAttributes, ReactNode } from 'react';

const VARIANTS = {
  primary: 'btn-primary',
  secondary: 'btn-secondary',
  outline: 'btn-outline',
  ghost: 'btn-ghost',
  error: 'btn-error',
} as const;

interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  variant?: keyof typeof VARIANTS;
  size?: 'sm' | 'md';
  /** Full width. */
  block?: boolean;
  /** Disabled with a spinner while an action runs. */
  busy?: boolean;
  /** The label while busy ('Saving...'); the normal label otherwise. */
  busyLabel?: ReactNode;
}

/** A daisyUI button; `type` is "button" unless given. */
export function Button({
  variant = 'primary',
  size = 'md',
  block = false,
  busy = false,
  busyLabel,
  disabled,
  className,
  type = 'button',
  children,
  ...rest
}: ButtonProps) {
  const classes = [
    'btn',
    VARIANTS[variant],
    size === 'sm' ? 'btn-sm' : '',
    block ? 'w-full' : '',
    className ?? '',
  ]
    .filter(Boolean)
    .join(' ');
  return (
    <button
      {...rest}
      type={type}
      className={classes}
      disabled={disabled || busy}
      aria-busy={busy || undefined}
    >
      {busy ? <span className="loading loading-spinner loading-sm" aria-hidden /> : null}
      {busy && busyLabel !== undefined ? busyLabel : children}
    </button>
  );
}
