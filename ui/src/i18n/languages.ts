/**
 * The languages the UI speaks, each named in itself, with the locale its dates and numbers
 * follow when the browser names no region of that language (en-GB: the spec's British English).
 */
export const LANGUAGES = {
  en: { name: 'English', locale: 'en-GB' },
  fr: { name: 'Français', locale: 'fr-FR' },
  de: { name: 'Deutsch', locale: 'de-DE' },
  es: { name: 'Español', locale: 'es-ES' },
} as const;

export type Language = keyof typeof LANGUAGES;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && Object.hasOwn(LANGUAGES, value);
}
