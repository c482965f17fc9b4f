import { useState } from 'react';

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/**
 * The values of a form that edits a saved record (or starts blank), and the record `version` the
 * edit is based on, which updates send. While the form is untouched it follows the record as it
 * changes elsewhere (the change feed revalidates it); once edited it keeps what was typed, and
 * saving answers 409 with the record as saved now, which `adopt` takes as the new base.
 */
export function useDraft<R extends { version: number }, V>(
  record: R | undefined,
  valuesOf: (record: R | undefined) => V,
) {
  const [base, setBase] = useState(record);
  const [values, setValues] = useState(() => valuesOf(record));
  const [version, setVersion] = useState(record?.version);
  const dirty = !same(values, valuesOf(base));

  // A newer saved record arrived (React's "adjust state when a prop changes" pattern).
  if (record && base && record.version > base.version) {
    setBase(record);
    if (!dirty) {
      setValues(valuesOf(record));
      setVersion(record.version);
    }
  }

  return {
    values,
    set: <K extends keyof V>(key: K, value: V[K]) => setValues((v) => ({ ...v, [key]: value })),
    version,
    dirty,
    /** Takes the record as saved now as the base of this edit; the typed values stay. */
    adopt: (current: R) => {
      setBase(current);
      setVersion(current.version);
    },
  };
}
