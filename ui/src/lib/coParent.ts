/** What a co-parent's screens need that is pure: PIN rules, meal grouping, labels. */

export const PIN_LENGTH = 6;
/** The entry screen allows this many wrong PINs, then blocks until it is reloaded (spec). */
export const PIN_ATTEMPTS = 3;

/** The spec's PIN strength rules (section 5), in its words; null when the PIN is fine. */
export function pinWeakness(pin: string): string | null {
  if (pin.length < PIN_LENGTH) return 'PIN must be at least 6 digits';
  if (!/^[0-9]+$/.test(pin)) return 'PIN must contain only numbers';
  if (pin.length > PIN_LENGTH) return 'PIN must be exactly 6 digits';
  if (/^(.)\1*$/.test(pin)) return 'PIN cannot be all the same digit';
  if (['012345', '123456', '654321', '098765'].some((p) => pin.startsWith(p))) {
    return 'PIN cannot be a sequential pattern';
  }
  return null;
}

/** The digits of a pasted or typed text, at most `PIN_LENGTH`. */
export function pinDigits(text: string): string {
  return text.replace(/[^0-9]/g, '').slice(0, PIN_LENGTH);
}

/** 'Invalid PIN. Please try again. (Attempt N of 3)' */
export function wrongPinMessage(attempt: number): string {
  return `Invalid PIN. Please try again. (Attempt ${attempt} of ${PIN_ATTEMPTS})`;
}

const MEAL_EMOJI: Record<string, string> = {
  Breakfast: '🥣',
  'Morning Snack': '🍎',
  Lunch: '🥪',
  'Afternoon Snack': '🍪',
  Dinner: '🍝',
  'Evening Snack': '🥛',
};

export function mealTypeEmoji(mealType: string): string {
  return MEAL_EMOJI[mealType] ?? '🍽️';
}

/** The local calendar day of an instant, as YYYY-MM-DD (days group by it). */
export function localDay(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/** 'Monday, November 23, 2026' for a YYYY-MM-DD day. */
export function fullDate(day: string, locale = 'en-US'): string {
  const [y = 0, m = 1, d = 1] = day.split('-').map(Number);
  return new Date(y, m - 1, d).toLocaleDateString(locale, {
    weekday: 'long',
    year: 'numeric',
    month: 'long',
    day: 'numeric',
  });
}

/** '6:05 PM' */
export function timeOf(iso: string, locale = 'en-US'): string {
  return new Date(iso).toLocaleTimeString(locale, { hour: 'numeric', minute: '2-digit' });
}

/** Meals (newest first) grouped by local day, in the order they come. */
export function byDay<T extends { mealDate: string }>(
  meals: readonly T[],
): { day: string; meals: T[] }[] {
  const groups: { day: string; meals: T[] }[] = [];
  for (const meal of meals) {
    const day = localDay(meal.mealDate);
    const last = groups.at(-1);
    if (last && last.day === day) last.meals.push(meal);
    else groups.push({ day, meals: [meal] });
  }
  return groups;
}
