// One ESLint configuration for the whole repository (flat config).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y';
import globals from 'globals';

const FRONTENDS = ['apps/storefront/**/*.{ts,tsx}', 'apps/admin/**/*.{ts,tsx}'];

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '**/build/**',
      '**/.nx/**',
      '**/schema.d.ts',
      '**/.cache/**',
      '**/public/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { ecmaVersion: 2022, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'warn',
    },
  },
  // Plain JavaScript scripts (bench, scripts, servers) run on Node.
  { files: ['**/*.{js,mjs,cjs}'], languageOptions: { globals: { ...globals.node } } },
  // CommonJS files (Jest configs, .cjs scripts) load with require by nature.
  {
    files: ['**/*.cjs', '**/jest.config.js', 'jest.preset.js'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  // Page-speed scripts hand functions to the browser (page.evaluate).
  { files: ['bench/web/**/*.{js,mjs}'], languageOptions: { globals: { ...globals.browser } } },
  // The frontends: the rules of hooks (the classic two; the React Compiler rules are not adopted) and
  // accessibility of the markup (customers on phones, screen readers in Amharic and English).
  {
    files: FRONTENDS,
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y },
    languageOptions: { parserOptions: { ecmaFeatures: { jsx: true } } },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      ...jsxA11y.flatConfigs.recommended.rules,
    },
  },
  // The storefront's links and forms keep the page's language (/am/…): Link, NavLink and Form come from
  // app/components/Localized.tsx, which wraps Remix's (docs/decisions/0092-language-in-the-address.md).
  {
    files: ['apps/storefront/app/**/*.{ts,tsx}'],
    ignores: ['apps/storefront/app/components/Localized.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: '@remix-run/react',
              importNames: ['Link', 'NavLink', 'Form'],
              message:
                "Import Link, NavLink and Form from components/Localized: they keep the page's language (docs/decisions/0092).",
            },
          ],
        },
      ],
    },
  },
  // A module owns its collection: outside it, nobody imports its schemas/
  // (docs/decisions/0009-module-boundaries.md; apps/api/test/module-boundaries.spec.ts checks the same,
  // seed excepted).
  {
    files: ['apps/api/src/**/*.ts'],
    ignores: ['apps/api/src/seed/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(\\.\\./)+(modules/)?[a-z-]+/schemas/',
              message:
                "Another module's schema: call its exported service instead (docs/decisions/0009-module-boundaries.md).",
            },
          ],
        },
      ],
    },
  },
  prettier,
);
