/**
 * Every date, time and number a screen shows, from one place: in the chosen language (i18n),
 * with the browser's region when it names one of that language, so a UK family reads
 * "23 Nov 2026, 18:30", an American one "Nov 23, 2026, 6:30 PM" and a French one
 * "23 nov. 2026, 18:30". A language the browser does not name takes its usual region (fr-FR).
 * Each format is made once: a formatter per call is slow on a phone with fifty meals to label.
 */
import { LANGUAGES, currentLanguage } from '../i18n';

let chosen: { asked: string; locale: string } | null = null;

/** The locale dates and numbers follow (worked out once per language: every date asks). */
export function dateLocale(): string {
  const language = currentLanguage();
  const asked =
    typeof navigator === 'undefined' ? [] : [...(navigator.languages ?? []), navigator.language];
  const key = `${language}|${asked.join(',')}`;
  if (chosen?.asked !== key) chosen = { asked: key, locale: pickLocale(language, asked) };
  return chosen.locale;
}

function pickLocale(language: keyof typeof LANGUAGES, asked: readonly string[]): string {
  for (const tag of asked) {
    if (!tag || tag.toLowerCase().split('-')[0] !== language) continue;
    try {
      if (Intl.DateTimeFormat.supportedLocalesOf(tag).length > 0) return tag;
    } catch {
      // Not a language tag Intl reads.
    }
  }
  return LANGUAGES[language].locale;
}

const STYLES = {
  /** "Monday 23 November 2026" */
  full: { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' },
  /** "23 Nov 2026" */
  medium: { day: 'numeric', month: 'short', year: 'numeric' },
  /** "23 Nov" */
  dayMonth: { day: 'numeric', month: 'short' },
  /** "Mon 23 Nov 2026" */
  dayHeading: { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' },
  /** "Monday 23 Nov" */
  weekday: { weekday: 'long', day: 'numeric', month: 'short' },
  /** "18:30" */
  time: { hour: '2-digit', minute: '2-digit' },
  /** "23 Nov, 18:30" */
  dayMonthTime: { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit' },
  /** "Monday 23 November 2026 at 18:30" */
  fullTime: {
    weekday: 'long',
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
  },
} as const satisfies Record<string, Intl.DateTimeFormatOptions>;

export type DateStyle = keyof typeof STYLES;

const made = new Map<string, Intl.DateTimeFormat>();

function formatter(style: DateStyle, utc: boolean): Intl.DateTimeFormat {
  const locale = dateLocale();
  const key = `${locale}|${style}|${utc}`;
  let f = made.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(locale, { ...STYLES[style], ...(utc ? { timeZone: 'UTC' } : {}) });
    made.set(key, f);
  }
  return f;
}

/** An instant (an ISO time or a Date) in the browser's time zone. */
export function formatDate(value: string | Date, style: DateStyle): string {
  return formatter(style, false).format(typeof value === 'string' ? new Date(value) : value);
}

/** A calendar day (YYYY-MM-DD): the same day wherever the browser is. */
export function formatDay(day: string, style: DateStyle): string {
  return formatter(style, true).format(new Date(`${day}T00:00:00Z`));
}
