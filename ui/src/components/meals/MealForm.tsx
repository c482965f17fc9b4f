import { Camera } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { savedElsewhere } from '../../api/client';
import type { Child } from '../../hooks/useChildren';
import { checkFoods, isAlarm, useFoodCheck, type FoodCheck } from '../../hooks/useFoodCheck';
import { useMealActions, type Meal, type SavePhase } from '../../hooks/useMeals';
import { useSubmit } from '../../hooks/useSubmit';
import { formatDate } from '../../lib/dates';
import {
  FEEDBACK,
  MEAL_TYPES,
  MOODS,
  PORTIONS,
  REACTIONS,
  fromLocalInput,
  mealTypeLabel,
  toLocalInput,
  withPending,
} from '../../lib/meals';
import { FoodWarnings } from '../food-safety/FoodWarnings';
import { Button } from '../ui/Button';
import { FormActions } from '../ui/FormActions';
import { Input, Select, TextArea } from '../ui/Input';
import { TagInput } from '../ui/TagInput';
import { useToast } from '../ui/toast-context';

interface MealFormProps {
  childList: Child[];
  /** Preselected child (the open tab); otherwise the first child. */
  childId?: string | null;
  /** The meal to edit; without it the form records a new one. */
  meal?: Meal;
  onDone: () => void;
  onCancel: () => void;
  /** Filled with the form's Cancel, for the dialog's Escape and close button. */
  cancelRef?: { current: (() => void) | null };
}

/** The images the server reads (its pipeline's formats). */
const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'];
/** The server's words for a file it cannot read as a photo (its catalogue key). */
const NOT_A_PHOTO = 'meals.form.notAPhoto';

/** A picked time as every other screen says it ("Monday 23 November 2026 at 18:30"). */
const fullTime = (local: string) => formatDate(new Date(local), 'fullTime');

/** What the food check is about: the child and the foods, as one comparable key. */
const checkKey = (child: string, foods: string[]) => JSON.stringify([child, foods]);

/**
 * Record or edit a meal (spec sections 2 and 9): usable one-handed at the table. What the
 * foods mean for the child (allergies, choking hazards, age rules) shows as they are typed,
 * and a first Save with a warning asks again; the parent may still save (an allergen makes
 * the meal an exposure). Cancel while saving never lets a meal appear silently: before the meal itself
 * is sent it aborts; after, the form waits and says that it was saved.
 */
export function MealForm({ childList, childId, meal, onDone, onCancel, cancelRef }: MealFormProps) {
  const { t } = useTranslation();
  const { record, update } = useMealActions();
  const { toast } = useToast();
  const [child, setChild] = useState(meal?.childId ?? childId ?? childList[0]?.id ?? '');
  const [mealType, setMealType] = useState<string>(meal?.mealType ?? '');
  const [typedFoods, setFoods] = useState<string[]>(meal?.foods ?? []);
  // A food typed and not yet added counts: Save adds it.
  const [pendingFood, setPendingFood] = useState('');
  const foods = withPending(typedFoods, pendingFood);
  const [portion, setPortion] = useState<string>(meal?.portion ?? 'full');
  const [mood, setMood] = useState<string>(meal?.mood ?? 'happy');
  const [feedback, setFeedback] = useState<string>(meal?.feedback ?? '');
  const [notes, setNotes] = useState(meal?.notes ?? '');
  // The latest time the server accepts (a few minutes ahead), as the picker's limit.
  const [latest] = useState(() => toLocalInput(new Date(Date.now() + 10 * 60_000)));
  const [eatenAt, setEatenAt] = useState(toLocalInput(meal?.mealDate ?? new Date()));
  const [reaction, setReaction] = useState<string>(meal?.reaction ?? 'none');
  const [reactionNote, setReactionNote] = useState(meal?.reactionNote ?? '');
  const [photo, setPhoto] = useState<{ file: File; preview: string } | null>(null);
  // The catalogue key of what is wrong with the chosen file, shown under the button.
  const [photoProblem, setPhotoProblem] = useState<string | null>(null);
  const [keepPhoto, setKeepPhoto] = useState(Boolean(meal?.photo));
  const [version, setVersion] = useState(meal?.version);
  // The check shown at Save for a child and foods, and the ones the parent chose to save anyway.
  const [warning, setWarning] = useState<{ key: string; check: FoodCheck } | null>(null);
  const [accepted, setAccepted] = useState<string | null>(null);
  const phase = useRef<SavePhase>('upload');
  const [cancelAsked, setCancelAsked] = useState(false);
  // Read by the save's handlers, which were made when Save was pressed.
  const cancelled = useRef(false);

  // Frees the previous preview when the photo changes, and the last one on close.
  useEffect(() => () => (photo ? URL.revokeObjectURL(photo.preview) : undefined), [photo]);

  const key = checkKey(child, foods);
  const live = useFoodCheck(child, foods).current;
  const shown = live ?? (warning?.key === key ? warning.check : null);
  const alarms = shown?.warnings.filter(isAlarm) ?? [];

  const submit = useSubmit(
    async (signal) => {
      phase.current = 'upload';
      const found = await checkFoods(child, foods, signal);
      if (found.warnings.some(isAlarm) && accepted !== key) {
        setWarning({ key, check: found });
        setAccepted(key);
        return null;
      }
      const input = {
        childId: child,
        mealType,
        foods,
        portion,
        mood,
        feedback: feedback || undefined,
        notes,
        mealDate: fromLocalInput(eatenAt),
        reaction,
        reactionNote: reaction === 'none' ? '' : reactionNote,
        photo: keepPhoto ? (meal?.photo ?? undefined) : undefined,
        version,
      };
      const file = photo?.file ?? null;
      const onPhase = (p: SavePhase) => (phase.current = p);
      return meal
        ? update(meal.id, input, file, signal, onPhase)
        : record(input, file, signal, onPhase);
    },
    {
      failureTitle: meal ? t('meals.errors.update') : t('meals.errors.save'),
      // Save stays enabled and says what is missing, at the field (the server's words).
      check: () => {
        const title = meal ? t('meals.errors.update') : t('meals.errors.save');
        if (!mealType) {
          return { title, message: t('meals.form.chooseMealType'), field: 'mealType' };
        }
        if (foods.length === 0) {
          return { title, message: t('meals.form.addFood'), field: 'foods' };
        }
        return null;
      },
      onSuccess: (saved) => {
        if (!saved) return; // the warnings are shown; the next Save goes ahead
        toast({
          variant: 'success',
          title: meal ? t('meals.form.updated') : t('meals.form.recorded'),
          description: cancelled.current ? t('meals.form.savedBeforeCancel') : undefined,
        });
        onDone();
      },
      onFailure: (err) => {
        // Changed elsewhere: take the version now saved, so a second Save applies this form.
        const current = savedElsewhere(err, 'meal');
        if (current) setVersion(current.version);
        if (cancelled.current) onCancel();
      },
    },
  );

  const cancel = () => {
    if (submit.busy && phase.current === 'save') {
      // The meal may already be written: wait for the answer and say what happened.
      cancelled.current = true;
      setCancelAsked(true);
      return;
    }
    submit.cancel();
    onCancel();
  };
  useEffect(() => {
    if (cancelRef) cancelRef.current = cancel;
  });

  return (
    <form
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        void submit.run();
      }}
      noValidate
    >
      <div className="grid gap-4 sm:grid-cols-2">
        <Select
          label={t('meals.form.child')}
          error={submit.fieldErrors.childId}
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
          label={t('meals.form.mealType')}
          error={submit.fieldErrors.mealType}
          value={mealType}
          onChange={(e) => setMealType(e.target.value)}
        >
          <option value="" disabled>
            {t('meals.form.chooseMeal')}
          </option>
          {MEAL_TYPES.map((type) => (
            <option key={type} value={type}>
              {mealTypeLabel(type)}
            </option>
          ))}
        </Select>
      </div>
      <Input
        label={t('meals.form.whenEaten')}
        type="datetime-local"
        // The picker draws the date its own way; this says it as every other screen does.
        hint={eatenAt ? fullTime(eatenAt) : undefined}
        error={submit.fieldErrors.mealDate}
        value={eatenAt}
        max={latest}
        onChange={(e) => setEatenAt(e.target.value)}
      />
      <TagInput
        label={t('meals.foods')}
        values={typedFoods}
        onChange={setFoods}
        draft={pendingFood}
        onDraftChange={setPendingFood}
        error={submit.fieldErrors.foods}
        placeholder={t('meals.form.foodPlaceholder')}
        addLabel={t('meals.form.addFoodButton')}
      />
      <FoodWarnings check={shown} />
      {alarms.length > 0 && accepted === key ? (
        <p role="alert" className="text-sm font-semibold">
          {alarms.some((w) => w.kind === 'allergen')
            ? t('meals.form.allergenWarning')
            : t('meals.form.hazardWarning')}
        </p>
      ) : null}
      <div className="grid gap-4 sm:grid-cols-2">
        <Select
          label={t('meals.portionLabel')}
          value={portion}
          onChange={(e) => setPortion(e.target.value)}
        >
          {PORTIONS.map((x) => (
            <option key={x.value} value={x.value}>
              {t(x.key)}
            </option>
          ))}
        </Select>
        <Select
          label={t('meals.feedbackLabel')}
          value={feedback}
          onChange={(e) => setFeedback(e.target.value)}
        >
          <option value="">{t('meals.form.noFeedback')}</option>
          {FEEDBACK.map((x) => (
            <option key={x.value} value={x.value}>
              {t(x.key)}
            </option>
          ))}
        </Select>
      </div>
      <fieldset>
        <legend className="label pb-1 font-medium text-base-content">{t('meals.form.mood')}</legend>
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
              <span className="text-xs">{t(m.key)}</span>
            </label>
          ))}
        </div>
      </fieldset>
      <TextArea
        label={t('meals.form.notes')}
        rows={2}
        value={notes}
        onChange={(e) => setNotes(e.target.value)}
      />
      <div className="grid gap-4 sm:grid-cols-2">
        <Select
          label={t('meals.form.reaction')}
          value={reaction}
          onChange={(e) => setReaction(e.target.value)}
        >
          {REACTIONS.map((x) => (
            <option key={x.value} value={x.value}>
              {t(x.key)}
            </option>
          ))}
        </Select>
        {reaction !== 'none' ? (
          <Input
            label={t('meals.form.whatHappened')}
            error={submit.fieldErrors.reactionNote}
            value={reactionNote}
            onChange={(e) => setReactionNote(e.target.value)}
          />
        ) : null}
      </div>
      <div>
        <label className="btn btn-outline w-full">
          <Camera aria-hidden size={18} />{' '}
          {photo || keepPhoto ? t('meals.form.changePhoto') : t('meals.form.addPhoto')}
          <input
            type="file"
            accept="image/*"
            className="sr-only"
            aria-label={t('meals.form.photo')}
            onChange={(e) => {
              const file = e.target.files?.[0];
              // Only what the server can read: anything else showed as a broken image.
              if (file && !PHOTO_TYPES.includes(file.type)) {
                e.target.value = '';
                toast({ title: t('meals.errors.photoUpload'), description: t(NOT_A_PHOTO) });
                setPhotoProblem(NOT_A_PHOTO);
                return;
              }
              setPhotoProblem(null);
              setPhoto(file ? { file, preview: URL.createObjectURL(file) } : null);
              if (file) setKeepPhoto(false);
            }}
          />
        </label>
        {photoProblem ? (
          <p role="alert" className="mt-1 text-sm text-error">
            {t(photoProblem)}
          </p>
        ) : null}
        {photo ? (
          <img
            src={photo.preview}
            alt={t('meals.form.selectedPhoto')}
            className="mt-2 max-h-40 rounded-box object-cover"
          />
        ) : null}
        {keepPhoto && meal?.thumbnailUrl ? (
          <div className="mt-2 flex items-end gap-2">
            <img
              src={meal.thumbnailUrl}
              alt={t('meals.form.currentPhoto')}
              className="max-h-40 rounded-box object-cover"
            />
            <Button variant="ghost" size="sm" onClick={() => setKeepPhoto(false)}>
              {t('meals.form.removePhoto')}
            </Button>
          </div>
        ) : null}
      </div>
      <FormActions
        onCancel={cancel}
        cancelLabel={cancelAsked ? t('meals.form.finishing') : t('common.cancel')}
        cancelDisabled={cancelAsked}
        busy={submit.busy}
      >
        {alarms.length > 0 && accepted === key
          ? t('meals.form.saveAnyway')
          : meal
            ? t('common.saveChanges')
            : t('meals.form.saveMeal')}
      </FormActions>
    </form>
  );
}
