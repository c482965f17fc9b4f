import type { InputHTMLAttributes, Ref, SelectHTMLAttributes, TextareaHTMLAttributes } from 'react';

import { Field, type FieldProps } from './Field';

type Labelled = Omit<FieldProps, 'children'>;
type Own = 'id' | 'className' | 'aria-invalid' | 'aria-describedby';

/**
 * A labelled text input (daisyUI `input`), with its error or hint linked for screen readers;
 * `ref` reaches the input (to focus it).
 */
export function Input({
  label,
  error,
  invalid,
  hint,
  ...input
}: Labelled & Omit<InputHTMLAttributes<HTMLInputElement>, Own> & { ref?: Ref<HTMLInputElement> }) {
  return (
    <Field label={label} error={error} invalid={invalid} hint={hint}>
      {(p) => <input {...input} {...p} className="input input-bordered w-full" />}
    </Field>
  );
}

/** A labelled select (daisyUI `select`). */
export function Select({
  label,
  error,
  invalid,
  hint,
  ...select
}: Labelled & Omit<SelectHTMLAttributes<HTMLSelectElement>, Own>) {
  return (
    <Field label={label} error={error} invalid={invalid} hint={hint}>
      {(p) => <select {...select} {...p} className="select select-bordered w-full" />}
    </Field>
  );
}

/** A labelled multi-line text box (daisyUI `textarea`); `className` sizes it. */
export function TextArea({
  label,
  error,
  invalid,
  hint,
  className,
  ...textarea
}: Labelled & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, Exclude<Own, 'className'>>) {
  return (
    <Field label={label} error={error} invalid={invalid} hint={hint}>
      {(p) => (
        <textarea
          {...textarea}
          {...p}
          className={`textarea textarea-bordered w-full ${className ?? ''}`}
        />
      )}
    </Field>
  );
}
