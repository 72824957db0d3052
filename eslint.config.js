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
  // The arrows point one way (README, "How it is built"; docs/architecture.md): shared ← core ← service ← app, bridge;
  // cli uses core, service, and the bridge and emulator it starts; the emulator takes nothing from the product; only
  // src-main/app imports electron. test/unit/architecture/lint-arrows.test.ts shows each rule refusing a probe.
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
    files: ['src-main/app/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/bridge/**', '**/cli/**', '**/emulator/**', '**/src-renderer/**'],
          message: 'the Electron shell serves the window through the service and the contract: it never imports the bridge, the CLI, the emulator or the renderer.' }],
      }],
    },
  },
  {
    files: ['src-main/bridge/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/app/**', '**/cli/**', '**/emulator/**', '**/src-renderer/**', 'electron'],
          message: 'the bridge is the contract over HTTP beside the Electron shell: it never imports app, the CLI, the emulator, the renderer or electron.' }],
      }],
    },
  },
  {
    files: ['src-main/cli/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', {
        patterns: [{ group: ['**/app/**', '**/contract/**', '**/src-renderer/**', 'electron'],
          message: 'the command line is plain Node over core and service (and the bridge and emulator it starts): never app, the IPC contract, the renderer or electron.' }],
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
  // The renderer runs in a sandboxed page: values from shared's pure rules, only types from the contract (its zod
  // schemas stay in main, which parses what the page sends), nothing else of src-main.
  {
    files: ['src-renderer/**/*.{ts,svelte}'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', {
        patterns: [
          { group: ['electron', 'node:*'], message: 'the renderer is a sandboxed web page: no Node, no electron.' },
          { group: ['**/src-main/**', '!**/src-main/shared', '!**/src-main/shared/**', '!**/src-main/contract', '!**/src-main/contract/**'],
            message: 'the renderer takes values only from src-main/shared and types only from src-main/contract.' },
          { group: ['**/src-main/contract', '**/src-main/contract/**'], allowTypeImports: true,
            message: 'the renderer imports only types from the contract (import type): its schemas run in main.' },
        ],
      }],
    },
  },
  // A function is one step (docs/architecture.md): none over 150 lines, outside the migrations (a shipped migration is
  // never edited) and the emulator's route table (marked where it is).
  {
    files: ['src-main/**/*.ts'],
    ignores: ['src-main/core/store/migrations/**'],
    rules: { 'max-lines-per-function': ['error', { max: 150 }] },
  },
);
