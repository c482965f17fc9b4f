import { useState, type FormEvent } from 'react';

import { useChildActions, type Child } from '../hooks/useChildren';
import { useFailure } from '../hooks/useFailure';
import { Field } from './ui/Field';
import { useToast } from './ui/toast-context';
import { TagInput } from './TagInput';

interface ChildFormProps {
  /** Editing when a child is passed, adding otherwise. */
  child?: Child;
  onDone: (child: Child) => void;
  onCancel: () => void;
}

/** Add or edit a child (spec section 2): name, age, restrictions and allergies. */
export function ChildForm({ child, onDone, onCancel }: ChildFormProps) {
  const { create, update } = useChildActions();
  const { toast } = useToast();
  const fail = useFailure();
  const [name, setName] = useState(child?.name ?? '');
  const [age, setAge] = useState(child?.age != null ? String(child.age) : '');
  const [restrictions, setRestrictions] = useState<string[]>(child?.dietaryRestrictions ?? []);
  const [allergies, setAllergies] = useState<string[]>(child?.allergies ?? []);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!name.trim()) {
      fail({ title: 'Name is required', message: "Please enter the child's name" }, 'Error');
      return;
    }
    setBusy(true);
    const input = {
      name: name.trim(),
      age: age.trim() === '' ? null : Number(age),
      dietaryRestrictions: restrictions,
      allergies,
    };
    try {
      const saved = child ? await update(child.id, input) : await create(input);
      if (child) toast({ variant: 'success', title: 'Child updated' });
      onDone(saved);
    } catch (err) {
      fail(err, child ? 'Error updating child profile' : 'Error');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="space-y-4" onSubmit={submit} noValidate>
      <div className="grid gap-4 sm:grid-cols-[2fr_1fr]">
        <Field label="Name">
          {(p) => (
            <input
              {...p}
              className="input input-bordered w-full"
              value={name}
              onChange={(e) => setName(e.target.value)}
              autoComplete="off"
            />
          )}
        </Field>
        <Field label="Age">
          {(p) => (
            <input
              {...p}
              type="number"
              min={0}
              max={18}
              inputMode="numeric"
              className="input input-bordered w-full"
              value={age}
              onChange={(e) => setAge(e.target.value)}
            />
          )}
        </Field>
      </div>
      <TagInput
        label="Dietary Restrictions"
        values={restrictions}
        onChange={setRestrictions}
        placeholder="e.g. Vegetarian"
        addLabel="Add dietary restriction"
      />
      <TagInput
        label="Allergies"
        values={allergies}
        onChange={setAllergies}
        placeholder="e.g. Peanuts"
        addLabel="Add allergy"
      />
      <div className="flex justify-end gap-2">
        <button type="button" className="btn btn-ghost" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn btn-primary" disabled={busy}>
          {busy ? 'Saving...' : child ? 'Save Changes' : 'Save'}
        </button>
      </div>
    </form>
  );
}
