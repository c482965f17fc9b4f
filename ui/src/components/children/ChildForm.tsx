import i18n from 'i18next';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { savedElsewhere } from '../../api/client';
import { useChildActions, type Child } from '../../hooks/useChildren';
import { useDraft } from '../../hooks/useDraft';
import { useSubmit } from '../../hooks/useSubmit';
import { dateLocale } from '../../lib/dates';
import { withPending } from '../../lib/meals';
import { FormActions } from '../ui/FormActions';
import { Input, Select } from '../ui/Input';
import { SavedElsewhere, type SavedValue } from '../ui/SavedElsewhere';
import { TagInput } from '../ui/TagInput';
import { useToast } from '../ui/toast-context';

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

const list = (items: string[]) =>
  items.length > 0 ? items.join(', ') : i18n.t('children.form.none');

/** The saved values that differ from the typed ones, labelled as in the form. */
function differences(saved: Child, typed: ChildValues): SavedValue[] {
  const now = valuesOf(saved);
  const out: SavedValue[] = [];
  if (now.name !== typed.name.trim()) {
    out.push({ label: i18n.t('children.form.name'), value: now.name });
  }
  if (now.age !== typed.age.trim()) {
    out.push({
      label: i18n.t('children.form.age'),
      value: now.age || i18n.t('children.form.notSet'),
    });
  }
  if (list(now.dietaryRestrictions) !== list(typed.dietaryRestrictions)) {
    out.push({
      label: i18n.t('children.form.dietaryRestrictions'),
      value: list(now.dietaryRestrictions),
    });
  }
  if (list(now.allergies) !== list(typed.allergies)) {
    out.push({ label: i18n.t('children.form.allergies'), value: list(now.allergies) });
  }
  return out;
}

/** Add or edit a child (spec section 2): name, age, restrictions and allergies. */
export function ChildForm({ child, onDone, onCancel }: ChildFormProps) {
  const { t } = useTranslation();
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
      failureTitle: child ? t('children.errors.update') : t('children.error'),
      check: () =>
        values.name.trim()
          ? null
          : {
              title: t('children.form.nameRequired'),
              message: t('children.form.enterName'),
              field: 'name',
            },
      onSuccess: (saved) => {
        setConflict(null);
        draft.adopt(saved);
        if (child) toast({ variant: 'success', title: t('children.form.updated') });
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
          label={t('children.form.name')}
          error={submit.fieldErrors.name}
          value={values.name}
          onChange={(e) => {
            set('name', e.target.value);
            submit.clearFieldError('name');
          }}
          autoComplete="off"
        />
        <Input
          label={t('children.form.age')}
          error={submit.fieldErrors.age}
          type="number"
          min={0}
          max={18}
          inputMode="numeric"
          value={values.age}
          onChange={(e) => set('age', e.target.value)}
        />
      </div>
      <BirthMonth
        value={values.birthMonth}
        error={submit.fieldErrors.birthMonth}
        onChange={(v) => set('birthMonth', v)}
      />
      <TagInput
        label={t('children.form.dietaryRestrictions')}
        values={values.dietaryRestrictions}
        onChange={(v) => set('dietaryRestrictions', v)}
        placeholder={t('children.form.restrictionExample')}
        addLabel={t('children.form.addRestriction')}
        draft={pendingRestriction}
        onDraftChange={setPendingRestriction}
      />
      <TagInput
        label={t('children.form.allergies')}
        values={values.allergies}
        onChange={(v) => set('allergies', v)}
        placeholder={t('children.form.allergyExample')}
        addLabel={t('children.form.addAllergy')}
        draft={pendingAllergy}
        onDraftChange={setPendingAllergy}
      />
      <FormActions
        onCancel={() => {
          submit.cancel();
          onCancel();
        }}
        busy={submit.busy}
      >
        {child ? t('common.saveChanges') : t('common.save')}
      </FormActions>
    </form>
  );
}

/** The month names in the browser's language: January, February... */
function monthNames(): string[] {
  const format = new Intl.DateTimeFormat(dateLocale(), { month: 'long', timeZone: 'UTC' });
  return Array.from({ length: 12 }, (_, m) => format.format(Date.UTC(2000, m, 1)));
}

/**
 * The birth month ("YYYY-MM", or '' when not given) as a month and a year to choose: a month
 * input showed a raw "--------- ----" in Chrome and was a plain text box in other browsers.
 */
function BirthMonth({
  value,
  error,
  onChange,
}: {
  value: string;
  error: string | undefined;
  onChange: (value: string) => void;
}) {
  const { t } = useTranslation();
  // A month without its year (or the other way round) is kept here until both are chosen.
  const [partial, setPartial] = useState({ year: '', month: '' });
  const hint = useId();
  const year = value ? value.slice(0, 4) : partial.year;
  const month = value ? value.slice(5, 7) : partial.month;
  const choose = (next: { year: string; month: string }) => {
    setPartial(next);
    onChange(next.year && next.month ? `${next.year}-${next.month}` : '');
  };
  const thisYear = new Date().getFullYear();
  const years = Array.from({ length: 19 }, (_, k) => String(thisYear - k));
  if (year && !years.includes(year)) years.push(year);
  return (
    <fieldset aria-describedby={hint}>
      <legend className="label pb-1">
        <span className="label-text font-medium text-base-content">
          {t('children.form.birthMonth')}
        </span>
      </legend>
      <div className="grid grid-cols-2 gap-3">
        <Select
          label={t('children.form.month')}
          value={month}
          invalid={Boolean(error)}
          onChange={(e) => choose({ year, month: e.target.value })}
        >
          <option value="">{t('children.form.notSet')}</option>
          {monthNames().map((name, m) => (
            <option key={name} value={String(m + 1).padStart(2, '0')}>
              {name}
            </option>
          ))}
        </Select>
        <Select
          label={t('children.form.year')}
          value={year}
          invalid={Boolean(error)}
          onChange={(e) => choose({ month, year: e.target.value })}
        >
          <option value="">{t('children.form.notSet')}</option>
          {years.map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </Select>
      </div>
      <p id={hint} className={`mt-1 text-sm ${error ? 'text-error' : 'text-base-content/70'}`}>
        {error ?? t('children.form.birthMonthHint')}
      </p>
    </fieldset>
  );
}
