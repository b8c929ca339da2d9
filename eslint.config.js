// Lint (npm run lint): typescript-eslint with type information, zero warnings allowed. Which part
// may import which is mostly the compiler's job (one tsconfig.json per part); the import rules here
// cover what the compiler cannot see: explicit extension-API imports in pure parts, lib/ reaching for
// components/ (the extension's tsconfig.json holds both), and content scripts reaching for the API
// client (tokens stay in the background).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { emptyCatchRule } from './.ci/eslint/empty-catch.js';

const EXTENSION_APIS = ['wxt', 'wxt/*', '@wxt-dev/*', 'webextension-polyfill'];

export default tseslint.config(
  { ignores: ['node_modules/', '.output/', '.wxt/', '.tsbuild/', 'data/', 'test-results/', 'playwright-report/', 'bench/extension/baseline-popup/', '**/*.js', '**/*.mjs', '**/*.cjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { tidemark: { rules: { 'no-silent-catch': emptyCatchRule } } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }],
      'no-empty': ['error', { allowEmptyCatch: false }],
      // `let x!: T` assigned once inside a closure that runs later cannot be const.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'tidemark/no-silent-catch': 'error',
      // TypeScript checks these itself (undefined names, redeclared overloads).
      'no-undef': 'off',
      'no-redeclare': 'off',
    },
  },
  {
    // Tests read untyped JSON answers and page globals (chrome.*, CSS.highlights) through `any`;
    // product code (everything else) may not.
    files: ['tests/**/*.ts', '**/*.test.ts', '**/*.test.tsx', '**/*.spec.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['lib/api/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: EXTENSION_APIS, message: 'lib/api is pure: no extension APIs (it runs in the service worker and in Node).' },
          { group: ['node:*'], message: 'lib/api is pure: no Node modules (it runs in the extension too).' },
          { group: ['**/server/**', '**/background/**', '**/components/**', '**/entrypoints/**', '**/messaging/**', '**/storage/**'], message: 'lib/api imports nothing of the server or the extension.' },
        ],
      }],
    },
  },
  {
    files: ['lib/anchoring/**/*.ts', 'lib/painting/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: EXTENSION_APIS, message: 'Anchoring and painting run in any page: DOM only, no extension APIs.' },
          { group: ['node:*'], message: 'Anchoring and painting run in any page: no Node modules.' },
        ],
      }],
    },
  },
  {
    // lib/ is logic and the content scripts' own UI (lib/highlighter/ui); components/ is Preact UI for
    // extension pages, built on lib/, never under it. The typescript-eslint twin of the rule, so the
    // per-part `no-restricted-imports` blocks (which replace one another's options) cannot undo it.
    files: ['lib/**/*.ts', 'lib/**/*.tsx'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [{ group: ['**/components/**'], message: 'lib/ never imports components/ (Preact UI for extension pages); move what both need into lib/.' }],
      }],
    },
  },
  {
    // Content scripts (the highlighter, its loader and parts): never the API client; tokens stay in the background.
    files: ['entrypoints/highlighter*/**', 'entrypoints/*.content.ts', 'entrypoints/*.content/**', 'lib/highlighter/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/api/client', '**/api/client/*', '**/background/*'], message: 'Content scripts talk to the background through lib/messaging, never to the server (tokens stay in the background).' }],
      }],
    },
  },
);
