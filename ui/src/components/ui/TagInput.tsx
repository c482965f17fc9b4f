import { Plus, X } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { addTag, removeTag } from '../../lib/meals';

interface TagInputProps {
  label: string;
  values: string[];
  onChange: (values: string[]) => void;
  placeholder?: string;
  /** Label of the add button, for screen readers. */
  addLabel?: string;
  /**
   * The text typed and not yet added, when the form owns it: a form adds it on Save, so a
   * value typed without pressing Enter is never dropped (see `withPending`).
   */
  draft?: string;
  onDraftChange?: (draft: string) => void;
  /** A message under the box, linked to it for screen readers. */
  error?: string | undefined;
}

/** A tag list: type, press Enter or the add button; chips are removable. */
export function TagInput({
  label,
  values,
  onChange,
  placeholder,
  addLabel,
  draft: ownedDraft,
  onDraftChange,
  error,
}: TagInputProps) {
  const { t } = useTranslation();
  const id = useId();
  // The field's name as it reads inside a sentence ("Add allergies"); the languages that keep a
  // noun's capital (German) use `label` as it is.
  const named = { label };
  const [localDraft, setLocalDraft] = useState('');
  const draft = ownedDraft ?? localDraft;
  const setDraft = onDraftChange ?? setLocalDraft;

  const add = () => {
    const next = addTag(values, draft);
    if (next !== values) onChange(next);
    setDraft('');
  };

  return (
    <div className="form-control w-full">
      <label htmlFor={id} className="label pb-1">
        <span className="label-text font-medium text-base-content">{label}</span>
      </label>
      <div className="join w-full">
        <input
          id={id}
          className="input input-bordered join-item w-full"
          value={draft}
          placeholder={placeholder}
          aria-invalid={Boolean(error)}
          aria-describedby={error ? `${id}-error` : undefined}
          onChange={(e) => setDraft(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              add();
            }
          }}
        />
        <button
          type="button"
          className="btn btn-secondary join-item"
          aria-label={addLabel ?? t('ui.tagInput.add', named)}
          onClick={add}
        >
          <Plus aria-hidden size={18} />
        </button>
      </div>
      {error ? (
        <p id={`${id}-error`} className="mt-1 text-sm text-error">
          {error}
        </p>
      ) : null}
      {values.length > 0 ? (
        <ul className="mt-2 flex flex-wrap gap-2" aria-label={t('ui.tagInput.added', named)}>
          {values.map((value, index) => (
            <li
              key={`${value}-${index}`}
              className="badge badge-lg h-auto min-h-8 gap-1 bg-base-200 py-1"
            >
              {value}
              <button
                type="button"
                className="btn btn-ghost btn-xs btn-circle"
                aria-label={t('ui.tagInput.remove', { value })}
                onClick={() => onChange(removeTag(values, index))}
              >
                <X aria-hidden size={12} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
