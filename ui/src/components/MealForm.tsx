import { Camera } from 'lucide-react';
import { useEffect, useState } from 'react';

import type { Child } from '../hooks/useChildren';
import { useMealActions } from '../hooks/useMeals';
import { useSubmit } from '../hooks/useSubmit';
import { FEEDBACK, MEAL_TYPES, MOODS, PORTIONS } from '../lib/meals';
import { TagInput } from './TagInput';
import { Button } from './ui/Button';
import { Select, TextArea } from './ui/Input';
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
  const [child, setChild] = useState(childId ?? childList[0]?.id ?? '');
  const [mealType, setMealType] = useState<string>('');
  const [foods, setFoods] = useState<string[]>([]);
  const [portion, setPortion] = useState('full');
  const [mood, setMood] = useState('happy');
  const [feedback, setFeedback] = useState('');
  const [notes, setNotes] = useState('');
  const [photo, setPhoto] = useState<{ file: File; preview: string } | null>(null);

  // Frees the previous preview when the photo changes, and the last one on close.
  useEffect(() => () => (photo ? URL.revokeObjectURL(photo.preview) : undefined), [photo]);

  const ready = Boolean(child && mealType && foods.length > 0);

  const submit = useSubmit(
    (signal) =>
      record(
        { childId: child, mealType, foods, portion, mood, feedback: feedback || undefined, notes },
        photo?.file ?? null,
        signal,
      ),
    {
      failureTitle: 'Error saving meal',
      onSuccess: () => {
        toast({ variant: 'success', title: 'Meal recorded! 🍽️' });
        onDone();
      },
    },
  );

  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        if (ready) void submit.run();
      }}
      noValidate
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Select
          label="Child"
          invalid={submit.fieldErrors.childId !== undefined}
          value={child}
          onChange={(e) => setChild(e.target.value)}
        >
          {childList.map((c) => (
            <option key={c.id} value={c.id}>
              {c.name}
            </option>
          ))}
        </Select>
        <Select
          label="Meal type"
          invalid={submit.fieldErrors.mealType !== undefined}
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
        </Select>
      </div>
      <TagInput
        label="Foods"
        values={foods}
        onChange={setFoods}
        placeholder="Type a food and press Enter"
        addLabel="Add food"
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Select label="Portion" value={portion} onChange={(e) => setPortion(e.target.value)}>
          {PORTIONS.map((x) => (
            <option key={x.value} value={x.value}>
              {x.label}
            </option>
          ))}
        </Select>
        <Select label="Feedback" value={feedback} onChange={(e) => setFeedback(e.target.value)}>
          <option value="">No feedback</option>
          {FEEDBACK.map((x) => (
            <option key={x.value} value={x.value}>
              {x.label}
            </option>
          ))}
        </Select>
      </div>
      <fieldset>
        <legend className="label pb-1 font-medium text-base-content">Mood</legend>
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
      <TextArea label="Notes" rows={2} value={notes} onChange={(e) => setNotes(e.target.value)} />
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
        <Button
          variant="ghost"
          onClick={() => {
            submit.cancel();
            onCancel();
          }}
        >
          Cancel
        </Button>
        <Button type="submit" disabled={!ready} busy={submit.busy} busyLabel="Saving...">
          Save Meal
        </Button>
      </div>
    </form>
  );
}
