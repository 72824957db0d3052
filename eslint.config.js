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
  // The arrows point one way: core never imports the shells; only src-main/app imports electron.
  {
    files: ['src-main/core/**/*.ts', 'src-main/emulator/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/app/**', '**/bridge/**', '**/cli/**', 'electron'] }],
    },
  },
  {
    files: ['src-main/contract/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['../*', 'electron', 'node:*'] }] },
  },
  {
    files: ['src-renderer/**/*.{ts,svelte}'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['electron', 'node:*', '**/src-main/core/**', '**/src-main/app/**'] }] },
  },
);
