import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import { svelte } from '@sveltejs/vite-plugin-svelte';

const root = import.meta.dirname;

export default defineConfig({
  main: {
    build: {
      outDir: resolve(root, 'out/main'),
      // Dependencies (better-sqlite3 and its native binding above all) stay in node_modules inside the asar.
      externalizeDeps: true,
      rolldownOptions: {
        // The CSV export's worker thread is an entry of its own; chunks sit beside the entries, so the export finds
        // it as ./csv-worker.js from whichever file its code lands in (core/export/csv-parallel.ts WORKER_URL).
        input: { index: resolve(root, 'src-main/app/main.ts'), 'csv-worker': resolve(root, 'src-main/core/export/csv-worker.ts') },
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: resolve(root, 'out/preload'),
      // A sandboxed preload is one CommonJS script: no imports to resolve at run time.
      externalizeDeps: false,
      isolatedEntries: true,
      rolldownOptions: {
        input: { preload: resolve(root, 'src-main/app/preload.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: resolve(root, 'src-renderer'),
    plugins: [svelte()],
    build: {
      outDir: resolve(root, 'out/renderer'),
      // The CSP allows no inline script; Vite's module preload polyfill would be one.
      modulePreload: { polyfill: false },
      // Less to parse before the first paint.
      minify: true,
      rolldownOptions: {
        input: { index: resolve(root, 'src-renderer/index.html') },
      },
    },
  },
});
