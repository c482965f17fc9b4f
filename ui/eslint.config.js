import js from '@eslint/js';
import i18next from 'eslint-plugin-i18next';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/** Props and fields whose text a person reads (or hears, through a screen reader). */
const PEOPLE_READ = [
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'placeholder',
  'title',
  'alt',
  'label',
  'description',
  'message',
  'heading',
  'hint',
  'emptyText',
  'confirmLabel',
  'cancelLabel',
  'fallbackTitle',
];

export default tseslint.config(
  { ignores: ['dist', 'node_modules', 'src/api/schema.d.ts'] },
  {
    files: ['**/*.{ts,tsx}'],
    extends: [js.configs.recommended, ...tseslint.configs.strict],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-console': ['error', { allow: ['warn', 'error'] }],
    },
  },
  {
    // What a person reads comes from the catalogues (src/locales, docs/translating.md): text in
    // JSX, the attributes people read (labels, placeholders, alt texts), and the texts handed to
    // toasts, dialogs and error fallbacks. Tests keep their literals: they check the English.
    files: ['src/**/*.tsx', 'src/**/*.ts'],
    ignores: ['src/**/*.test.{ts,tsx}', 'src/test-utils.tsx', 'src/test-setup.ts'],
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'jsx-attributes': { include: [...PEOPLE_READ], exclude: ['.*'] },
          words: { exclude: ['[0-9!-/:-@[-`{-~\\s·—–…£€$×]+', '[A-Z_-]+'] },
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: `Property[key.name=/^(${PEOPLE_READ.join('|')})$/] > Literal[value=/[A-Za-z]/]`,
          message: 'User-visible text comes from the catalogues: t(...).',
        },
        {
          selector: `Property[key.name=/^(${PEOPLE_READ.join('|')})$/] > TemplateLiteral > TemplateElement[value.raw=/[A-Za-z]{2}/]`,
          message: 'User-visible text comes from the catalogues: t(...).',
        },
        {
          selector:
            'CallExpression[callee.name=/^(unwrap|uploadImage|toast)$/] > Literal[value=/[A-Za-z]/]',
          message: 'User-visible text comes from the catalogues: t(...).',
        },
      ],
    },
  },
  {
    files: ['**/*.{js,mjs}'],
    extends: [js.configs.recommended],
    languageOptions: { globals: { ...globals.node } },
  },
);
