// Lint (npm run lint): typescript-eslint with type information, zero warnings allowed. Which part
// may import which is mostly the compiler's job (one tsconfig.json per part); the import rules here
// cover what the compiler cannot see: explicit extension-API imports in pure parts, lib/ reaching for
// components/ (the extension's tsconfig.json holds both), content scripts reaching for the API client
// (tokens stay in the background), and the server's layers (one compiler part, so the lint says which
// folder may import which).
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
  // The server's layers point one way: routes, web pages and plugins -> services -> repositories ->
  // domain. Repositories are the bottom: they run the SQL and know nothing of the layers above.
  // Only repositories and server/db (the store, migrations) reach a database driver.
  {
    files: ['server/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/repositories/**', '**/services/**', '**/routes/**', '**/plugins/**', '**/web/**', '**/db/**', 'better-sqlite3', 'pg'], message: 'server/domain is pure rules and shapes: it imports no other server layer and no database.' }],
      }],
    },
  },
  {
    files: ['server/repositories/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/services/**', '**/routes/**', '**/plugins/**', '**/web/**'], message: 'Repositories are the bottom layer of the server: what they share with services belongs in server/domain.' }],
      }],
    },
  },
  {
    files: ['server/routes/**/*.ts', 'server/services/**/*.ts', 'server/web/**/*.ts', 'server/plugins/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['better-sqlite3', 'pg', '**/db/**'], message: 'Routes and services hold no SQL: read and write through server/repositories.' }],
      }],
    },
  },
  {
    files: ['server/services/**/*.ts'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: ['better-sqlite3', 'pg', '**/db/**'], message: 'Routes and services hold no SQL: read and write through server/repositories.' },
          { group: ['**/routes/**', '**/plugins/**', '**/web/**'], message: 'Services sit below the HTTP layer: routes, plugins and web pages call services, never the reverse.' },
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
  {
    // The library UI runs in the extension and in the web app: its data comes only through the host
    // in context (lib/library/host.ts), never from messaging, the API client or an extension API.
    files: ['components/library/**/*.ts', 'components/library/**/*.tsx'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [
          { group: [...EXTENSION_APIS, '**/messaging/*', '**/api/client', '**/api/client/*', '**/background/*', '**/library/extension-host*'], message: 'Library components reach their data through useHost() (lib/library/host.ts), so the web app can run them too.' },
        ],
      }],
    },
  },
);
