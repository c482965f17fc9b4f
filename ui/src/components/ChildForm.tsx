import { useState } from 'react';

import { savedElsewhere } from '../api/client';
import { useChildActions, type Child } from '../hooks/useChildren';
import { useDraft } from '../hooks/useDraft';
import { useSubmit } from '../hooks/useSubmit';
import { withPending } from '../lib/meals';
import { Button } from './ui/Button';
import { Input } from './ui/Input';
import { SavedElsewhere, type SavedValue } from './ui/SavedElsewhere';
import { useToast } from './ui/toast-context';
import { TagInput } from './TagInput';

interface ChildFormProps {
  /** Editing when a child is passed, adding otherwise. */
  child?: Child;
  onDone: (child: Child) => void;
  onCancel: () => void;
}

interface ChildValues {
  name: string;
  age: string;
  birthMonth: string;
  dietaryRestrictions: string[];
  allergies: string[];
}

const valuesOf = (child: Child | undefined): ChildValues => ({
  name: child?.name ?? '',
  age: child?.age != null ? String(child.age) : '',
  birthMonth: child?.birthMonth ?? '',
  dietaryRestrictions: child?.dietaryRestrictions ?? [],
  allergies: child?.allergies ?? [],
});

const list = (items: string[]) => (items.length > 0 ? items.join(', ') : 'None');

/** The saved values that differ from the typed ones, labelled as in the form. */
function differences(saved: Child, typed: ChildValues): SavedValue[] {
  const now = valuesOf(saved);
  const out: SavedValue[] = [];
  if (now.name !== typed.name.trim()) out.push({ label: 'Name', value: now.name });
  if (now.age !== typed.age.trim()) out.push({ label: 'Age', value: now.age || 'Not set' });
  if (list(now.dietaryRestrictions) !== list(typed.dietaryRestrictions)) {
    out.push({ label: 'Dietary Restrictions', value: list(now.dietaryRestrictions) });
  }
  if (list(now.allergies) !== list(typed.allergies)) {
    out.push({ label: 'Allergies', value: list(now.allergies) });
  }
  return out;
}

/** Add or edit a child (spec section 2): name, age, restrictions and allergies. */
export function ChildForm({ child, onDone, onCancel }: ChildFormProps) {
  const { create, update } = useChildActions();
  const { toast } = useToast();
  const draft = useDraft(child, valuesOf);
  const { values, set } = draft;
  // The child as saved elsewhere, after an update was refused for a stale version.
  const [conflict, setConflict] = useState<Child | null>(null);
  // Typed into the tag boxes and not yet added: added on Save, never dropped.
  const [pendingRestriction, setPendingRestriction] = useState('');
  const [pendingAllergy, setPendingAllergy] = useState('');

  const submit = useSubmit(
    (signal) => {
      const dietaryRestrictions = withPending(values.dietaryRestrictions, pendingRestriction);
      const allergies = withPending(values.allergies, pendingAllergy);
      // Shown as chips too, so what is saved is what the form shows.
      set('dietaryRestrictions', dietaryRestrictions);
      set('allergies', allergies);
      setPendingRestriction('');
      setPendingAllergy('');
      const input = {
        name: values.name.trim(),
        age: values.age.trim() === '' ? null : Number(values.age),
        birthMonth: values.birthMonth,
        dietaryRestrictions,
        allergies,
      };
      return child
        ? update(child.id, { ...input, version: draft.version }, signal)
        : create(input, signal);
    },
    {
      failureTitle: child ? 'Error updating child profile' : 'Error',
      check: () =>
        values.name.trim()
          ? null
          : { title: 'Name is required', message: "Please enter the child's name", field: 'name' },
      onSuccess: (saved) => {
        setConflict(null);
        draft.adopt(saved);
        if (child) toast({ variant: 'success', title: 'Child updated' });
        onDone(saved);
      },
      onFailure: (err) => {
        // The toast says so; the typed values stay, and saving again overwrites on purpose.
        const current = savedElsewhere(err, 'child');
        if (current) {
          setConflict(current);
          draft.adopt(current);
        }
      },
    },
  );

  return (
    <form className="space-y-4" onSubmit={submit.onSubmit} noValidate>
      {conflict ? <SavedElsewhere values={differences(conflict, values)} /> : null}
      <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <Input
          label="Name"
          error={submit.fieldErrors.name}
          value={values.name}
          onChange={(e) => {
            set('name', e.target.value);
            submit.clearFieldError('name');
          }}
          autoComplete="off"
        />
        <Input
          label="Age"
          error={submit.fieldErrors.age}
          type="number"
          min={0}
          max={18}
          inputMode="numeric"
          value={values.age}
          onChange={(e) => set('age', e.target.value)}
        />
      </div>
      <Input
        label="Birth month (optional)"
        type="month"
        hint="For babies: their age is then shown in months."
        error={submit.fieldErrors.birthMonth}
        value={values.birthMonth}
        onChange={(e) => set('birthMonth', e.target.value)}
      />
      <TagInput
        label="Dietary Restrictions"
        values={values.dietaryRestrictions}
        onChange={(v) => set('dietaryRestrictions', v)}
        placeholder="e.g. Vegetarian"
        addLabel="Add dietary restriction"
        draft={pendingRestriction}
        onDraftChange={setPendingRestriction}
      />
      <TagInput
        label="Allergies"
        values={values.allergies}
        onChange={(v) => set('allergies', v)}
        placeholder="e.g. Peanuts"
        addLabel="Add allergy"
        draft={pendingAllergy}
        onDraftChange={setPendingAllergy}
      />
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
        <Button type="submit" busy={submit.busy} busyLabel="Saving...">
          {child ? 'Save Changes' : 'Save'}
        </Button>
      </div>
    </form>
  );
}
