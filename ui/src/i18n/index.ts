/**
 * The UI's languages (react-i18next). One catalogue per language in `src/locales`, in the
 * i18next JSON v4 format Weblate reads (docs/translating.md). Each is its own chunk, fetched
 * when chosen and kept by the service worker, so a family's language opens offline too.
 *
 * Which language: the one kept with the account (chosen on the profile page), else the one
 * chosen last on this browser, else the browser's own, else the server's default (config).
 * A co-parent has no account: their pages follow their own browser.
 */
import i18n, { type BackendModule, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';

import en from '../locales/en.json';
import { LANGUAGES, isLanguage, type Language } from './languages';

export { LANGUAGES, isLanguage, type Language };

/** The browser's last choice, so a reload opens in it before the session is read. */
const STORAGE_KEY = 'highchair.language';

/** The other languages' catalogues, a chunk each. English is built into the first one: the
 * spec's words and every language's fallback, so an English screen paints with no wait (a
 * catalogue fetched first held the first paint back by a round trip: Lighthouse 96 to 89). */
const catalogues = import.meta.glob<ResourceKey>(['../locales/*.json', '!../locales/en.json'], {
  import: 'default',
});

/** Loads a language's catalogue on demand (a chunk of its own). */
const backend: BackendModule = {
  type: 'backend',
  init: () => undefined,
  read(language, _namespace, callback) {
    const load = catalogues[`../locales/${language}.json`];
    if (!load) {
      callback(new Error(`No catalogue for ${language}`), false);
      return;
    }
    load().then(
      (resources) => callback(null, resources),
      (err: unknown) => callback(err instanceof Error ? err : new Error(String(err)), false),
    );
  },
};

/** The first of the browser's languages the UI speaks, if any. */
export function browserLanguage(): Language | undefined {
  if (typeof navigator === 'undefined') return undefined;
  for (const tag of [...(navigator.languages ?? []), navigator.language]) {
    const base = tag?.toLowerCase().split('-')[0];
    if (isLanguage(base)) return base;
  }
  return undefined;
}

function storedLanguage(): Language | undefined {
  try {
    const stored = globalThis.localStorage?.getItem(STORAGE_KEY) ?? undefined;
    return isLanguage(stored) ? stored : undefined;
  } catch {
    return undefined; // Storage refused (private mode): the browser's language it is.
  }
}

function remember(language: Language | undefined) {
  try {
    if (language) globalThis.localStorage?.setItem(STORAGE_KEY, language);
    else globalThis.localStorage?.removeItem(STORAGE_KEY);
  } catch {
    // Not kept: the account or the browser decides again next time.
  }
}

/** The language shown now. */
export function currentLanguage(): Language {
  const language = i18n.resolvedLanguage ?? i18n.language;
  return isLanguage(language) ? language : 'en';
}

/**
 * Formats a catalogue may ask for beside i18next's own (number, datetime, list):
 * `{{label, lowercase}}` ("Add allergies"; German keeps its capital nouns by not asking).
 */
export function addFormats(instance: typeof i18n) {
  instance.services.formatter?.add('lowercase', (value: unknown, lng: string | undefined) =>
    String(value).toLocaleLowerCase(lng),
  );
}

/** Starts i18next in the browser's (or last chosen) language; resolves once its catalogue is in. */
export function initI18n(): Promise<unknown> {
  const language = storedLanguage() ?? browserLanguage() ?? 'en';
  setDocumentLanguage(language);
  i18n.on('languageChanged', (lng) => {
    if (isLanguage(lng)) setDocumentLanguage(lng);
  });
  const ready = i18n
    .use(backend)
    .use(initReactI18next)
    .init({
      lng: language,
      resources: { en: { translation: en } },
      partialBundledLanguages: true,
      fallbackLng: 'en',
      supportedLngs: Object.keys(LANGUAGES),
      load: 'languageOnly',
      interpolation: { escapeValue: false }, // React escapes.
      react: { useSuspense: false },
      returnNull: false,
    });
  addFormats(i18n);
  // The first language's catalogue came in before i18next called itself started: the page's
  // description is set now.
  return ready.then((t) => {
    setDocumentLanguage(currentLanguage());
    return t;
  });
}

/**
 * Sets the page's language: screen readers, hyphenation of long German words, fonts; its
 * description, once the catalogue is in; and the app manifest an install reads (built per
 * language beside the English one).
 */
function setDocumentLanguage(language: Language) {
  if (typeof document === 'undefined') return;
  document.documentElement.lang = LANGUAGES[language].locale;
  const manifest = document.querySelector<HTMLLinkElement>('link[rel="manifest"]');
  if (manifest) {
    manifest.href = language === 'en' ? '/manifest.webmanifest' : `/manifest.${language}.webmanifest`;
  }
  if (i18n.isInitialized && i18n.hasResourceBundle(language, 'translation')) {
    document
      .querySelector('meta[name="description"]')
      ?.setAttribute('content', i18n.t('app.metaDescription', { lng: language }));
  }
}

/**
 * The language the account keeps (null: none chosen), or, with none, the server's default
 * when the browser speaks none of the UI's languages.
 */
export function followAccount(account: Language | null | undefined, serverDefault?: Language) {
  const wanted = account ?? storedLanguage() ?? browserLanguage() ?? serverDefault;
  if (account) remember(account);
  if (wanted && wanted !== currentLanguage()) void i18n.changeLanguage(wanted);
}

/** A choice made on this browser (the profile page saves it with the account too). */
export function chooseLanguage(language: Language) {
  remember(language);
  return i18n.changeLanguage(language);
}

/** "Automatic": no choice kept here; the browser's language (else English until the server's
 * default is known, which `LanguageSync` then applies). */
export function followBrowser() {
  remember(undefined);
  return i18n.changeLanguage(browserLanguage() ?? 'en');
}

/** Whether only the server's default can decide: nothing chosen here, a browser in none. */
export function needsServerDefault(): boolean {
  return !storedLanguage() && !browserLanguage();
}

export default i18n;
