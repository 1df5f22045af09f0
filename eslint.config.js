import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import { boundaries } from './scripts/eslint-boundaries.mjs';

// The three source roots are an architecture, not a convention: core stays pure so the limits
// engine runs in the browser, and the client bundle can never pull in server code.
const outsideCore = [
  '**/server/**',
  '**/client/**',
  '**/e2e/**',
  '**/bench/**',
  'node:*',
  'fs',
  'path',
  'pg',
  '@electric-sql/*',
  'fastify*',
  '@fastify/*',
  'react',
  'react-dom',
  'antd',
];

export default tseslint.config(
  { ignores: ['node_modules', 'dist', 'data', 'coverage', '.test-output'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // Which folder may import which: scripts/eslint-boundaries.mjs lists the layers.
    files: ['client/**/*.{ts,tsx}', 'server/**/*.ts'],
    plugins: { boundaries },
    rules: { 'boundaries/layers': 'error' },
  },
  {
    files: ['core/**/*.ts'],
    ignores: ['core/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        { patterns: [{ group: outsideCore, message: 'core/ imports nothing outside itself.' }] },
      ],
    },
  },
  {
    files: ['client/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['**/server/**', 'node:*'], message: 'client/ never imports server/.' },
          ],
        },
      ],
      // One width rule for every dropdown list (client/styles.css, issue 30): a list set apart
      // from its field's width could open narrower than the field, its labels cut.
      'no-restricted-syntax': [
        'error',
        {
          selector: 'JSXAttribute[name.name=/^(popupMatchSelectWidth|dropdownMatchSelectWidth)$/]',
          message: 'Dropdown lists take their width from the shared rule in client/styles.css.',
        },
      ],
    },
  },
);
