import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import svelte from 'eslint-plugin-svelte';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['node_modules/', 'out/', 'dist/', 'coverage/', 'test-artifacts/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...svelte.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src-renderer/**/*.{ts,svelte}'],
    languageOptions: { globals: { ...globals.browser }, parserOptions: { parser: tseslint.parser } },
  },
  {
    files: ['**/*.svelte', '**/*.svelte.ts'],
    languageOptions: { parserOptions: { parser: tseslint.parser, extraFileExtensions: ['.svelte'] } },
  },
  // The arrows point one way (README, "How it is built"): shared ← core ← service ← app, bridge, cli; the emulator
  // takes only the domain model from core; only src-main/app imports electron.
  {
    files: ['src-main/core/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/service/**', '**/app/**', '**/bridge/**', '**/cli/**', '**/emulator/**', '**/contract/**', 'electron'],
          message: 'core is plain Node below the shells: it never imports service, app, bridge, cli, emulator or the contract.' }],
      }],
    },
  },
  {
    files: ['src-main/emulator/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/core/**', '**/shared/**', '**/service/**', '**/app/**', '**/bridge/**', '**/cli/**', '**/contract/**', '**/src-renderer/**', 'electron'],
          message: 'the emulator is a test oracle: it reads the rules again from docs/ (emulator/rules.ts) and imports nothing from the product.' }],
      }],
    },
  },
  {
    files: ['src-main/service/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/app/**', '**/bridge/**', '**/cli/**', 'electron'],
          message: 'the service is the window\'s backend for app and bridge: it never imports them, the CLI or electron.' }],
      }],
    },
  },
  {
    files: ['src-main/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['../*', 'node:*', 'electron', 'zod'],
          message: 'shared holds pure rules for main, CLI and renderer alike: no Node, no zod, nothing from the rest of src-main.' }],
      }],
    },
  },
  // The contract is zod and the shared rules' shapes (types and pure values): nothing of main's Node side.
  {
    files: ['src-main/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['../*', '!../shared', '../shared/**/..', 'electron', 'node:*'],
          message: 'the contract takes zod and the shared rules (src-main/shared) only: the renderer reads its types.' }],
      }],
    },
  },
  {
    files: ['src-renderer/**/*.{ts,svelte}'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['electron', 'node:*', '**/src-main/core/**', '**/src-main/service/**', '**/src-main/emulator/**', '**/src-main/app/**', '**/src-main/bridge/**', '**/src-main/cli/**'] }] },
  },
);
