import { useId, type ReactNode } from 'react';

export interface FieldControlProps {
  id: string;
  'aria-invalid': boolean;
  'aria-describedby'?: string;
}

export interface FieldProps {
  label: string;
  /** A message shown under the control (and linked to it); marks it invalid. */
  error?: string | undefined;
  /** Marks the control invalid without a message of its own (the toast says why). */
  invalid?: boolean;
  hint?: string;
  children: (props: FieldControlProps) => ReactNode;
}

/** A labelled form field with its error message (screen-reader linked). */
export function Field({ label, error, invalid, hint, children }: FieldProps) {
  const id = useId();
  const messageId = `${id}-message`;
  const described = error || hint ? messageId : undefined;
  return (
    <div className="form-control w-full">
      <label htmlFor={id} className="label pb-1">
        <span className="label-text font-medium text-base-content">{label}</span>
      </label>
      {children({
        id,
        'aria-invalid': Boolean(error) || Boolean(invalid),
        ...(described ? { 'aria-describedby': described } : {}),
      })}
      {error ? (
        <p id={messageId} className="mt-1 text-sm text-error">
          {error}
        </p>
      ) : hint ? (
        <p id={messageId} className="mt-1 text-sm text-base-content/70">
          {hint}
        </p>
      ) : null}
    </div>
  );
}
