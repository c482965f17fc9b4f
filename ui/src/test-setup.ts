import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

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
