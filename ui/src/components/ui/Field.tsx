import { useId, type ReactNode } from 'react';

interface FieldProps {
  label: string;
  error?: string | undefined;
  hint?: string;
  children: (props: {
    id: string;
    'aria-invalid': boolean;
    'aria-describedby'?: string;
  }) => ReactNode;
}

/** A labelled form field with its error message (screen-reader linked). */
export function Field({ label, error, hint, children }: FieldProps) {
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
        'aria-invalid': Boolean(error),
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
