import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { afterEach } from 'vitest';

import { addFormats } from './i18n';
import en from './locales/en.json';

// The spec's English, loaded at once: screens are tested in the words the spec gives them.
void i18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  resources: { en: { translation: en } },
  interpolation: { escapeValue: false },
  react: { useSuspense: false },
  initAsync: false,
});
addFormats(i18n);

// jsdom has no object URLs; photo previews only need a string.
if (!URL.createObjectURL) {
  URL.createObjectURL = () => 'blob:preview';
  URL.revokeObjectURL = () => undefined;
}

afterEach(() => {
  cleanup();
});

// A UK family's browser: dates follow the browser's locale (lib/dates.ts). Node-only suites
// (the schema check) have no navigator.
if (typeof navigator !== 'undefined') {
  Object.defineProperty(navigator, 'language', { value: 'en-GB', configurable: true });
  Object.defineProperty(navigator, 'languages', { value: ['en-GB', 'en'], configurable: true });
}
