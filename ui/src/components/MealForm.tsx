import { Camera } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';

import type { Child } from '../hooks/useChildren';
import { useFailure } from '../hooks/useFailure';
import { useMealActions } from '../hooks/useMeals';
import { FEEDBACK, MEAL_TYPES, MOODS, PORTIONS } from '../lib/meals';
import { TagInput } from './TagInput';
import { Field } from './ui/Field';
import { useToast } from './ui/toast-context';

interface MealFormProps {
  childList: Child[];
  /** Preselected child (the open tab); otherwise the first child. */
  childId?: string | null;
  onDone: () => void;
  onCancel: () => void;
}

/** Record a meal (spec sections 2 and 9): usable one-handed at the table. */
export function MealForm({ childList, childId, onDone, onCancel }: MealFormProps) {
  const { record } = useMealActions();
  const { toast } = useToast();
  const fail = useFailure();
  const [child, setChild] = useState(childId ?? childList[0]?.id ?? '');
  const [mealType, setMealType] = useState<string>('');
  const [foods, setFoods] = useState<string[]>([]);
  const [portion, setPortion] = useState('full');
  const [mood, setMood] = useState('happy');
  const [feedback, setFeedback] = useState('');
  const [notes, setNotes] = useState('');
  const [photo, setPhoto] = useState<{ file: File; preview: string } | null>(null);
  const [busy, setBusy] = useState(false);

  // Frees the previous preview when the photo changes, and the last one on close.
  useEffect(() => () => (photo ? URL.revokeObjectURL(photo.preview) : undefined), [photo]);

  const ready = Boolean(child && mealType && foods.length > 0);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!ready) return;
    setBusy(true);
    try {
      await record(
        { childId: child, mealType, foods, portion, mood, feedback: feedback || undefined, notes },
        photo?.file ?? null,
      );
      toast({ variant: 'success', title: 'Meal recorded! 🍽️' });
      onDone();
    } catch (err) {
      fail(err, 'Error saving meal');
      setBusy(false);
    }
  }

  return (
    <form className="space-y-4" onSubmit={submit} noValidate>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Child">
          {(p) => (
            <select
              {...p}
              className="select select-bordered w-full"
              value={child}
              onChange={(e) => setChild(e.target.value)}
            >
              {childList.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Meal type">
          {(p) => (
            <select
              {...p}
              className="select select-bordered w-full"
              value={mealType}
              onChange={(e) => setMealType(e.target.value)}
            >
              <option value="" disabled>
                Choose a meal
              </option>
              {MEAL_TYPES.map((t) => (
                <option key={t} value={t}>
                  {t}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <TagInput
        label="Foods"
        values={foods}
        onChange={setFoods}
        placeholder="Type a food and press Enter"
        addLabel="Add food"
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Portion">
          {(p) => (
            <select
              {...p}
              className="select select-bordered w-full"
              value={portion}
              onChange={(e) => setPortion(e.target.value)}
            >
              {PORTIONS.map((x) => (
                <option key={x.value} value={x.value}>
                  {x.label}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Feedback">
          {(p) => (
            <select
              {...p}
              className="select select-bordered w-full"
              value={feedback}
              onChange={(e) => setFeedback(e.target.value)}
            >
              <option value="">No feedback</option>
              {FEEDBACK.map((x) => (
                <option key={x.value} value={x.value}>
                  {x.label}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <fieldset>
        <legend className="label pb-1 font-medium">Mood</legend>
        <div className="grid grid-cols-3 gap-2">
          {MOODS.map((m) => (
            <label
              key={m.value}
              className={`btn h-auto flex-col py-2 ${mood === m.value ? 'btn-primary' : 'btn-outline'}`}
            >
              <input
                type="radio"
                name="mood"
                value={m.value}
                className="sr-only"
                checked={mood === m.value}
                onChange={() => setMood(m.value)}
              />
              <span className="text-2xl" aria-hidden>
                {m.emoji}
              </span>
              <span className="text-xs">{m.label}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <Field label="Notes">
        {(p) => (
          <textarea
            {...p}
            className="textarea textarea-bordered w-full"
            rows={2}
            value={notes}
            onChange={(e) => setNotes(e.target.value)}
          />
        )}
      </Field>
      <div>
        <label className="btn btn-outline w-full">
          <Camera aria-hidden size={18} /> {photo ? 'Change photo' : 'Add a photo'}
          <input
            type="file"
            accept="image/*"
            className="sr-only"
            aria-label="Photo"
            onChange={(e) => {
              const file = e.target.files?.[0];
              setPhoto(file ? { file, preview: URL.createObjectURL(file) } : null);
            }}
          />
        </label>
        {photo ? (
          <img
            src={photo.preview}
            alt="Selected photo"
            className="mt-2 max-h-40 rounded-box object-cover"
          />
        ) : null}
      </div>
      <div className="flex justify-end gap-2">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={!ready || busy}>
          {busy ? 'Saving...' : 'Save Meal'}
        </button>
      </div>
    </form>
  );
}
