// Packs the app the way `npm run dist` does, with a stub in place of Electron (it cannot be downloaded here), and
// checks app.asar: what the app needs is in, sources and tests are out, SQLite's binary sits unpacked beside it.
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { listPackage, extractFile } from '@electron/asar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureAppBuilt } from '../helpers/browser.ts';

/** @electron/fuses' marker before the fuse wire in an Electron binary; fuses are '0' off, '1' on, in FuseV1Options order. */
const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
const DEFAULT_FUSES = '10110001';
const work = mkdtempSync(path.join(tmpdir(), 'trackwatch-pack-'));
const appDir = path.join(work, 'dist', 'linux-unpacked');
const asar = path.join(appDir, 'resources', 'app.asar');
let files: string[] = [];

beforeAll(() => {
  ensureAppBuilt();
  const stub = path.join(work, 'electron-stub');
  execFileSync('mkdir', ['-p', stub]);
  // With Electron's fuse wire (sentinel, version 1, 8 fuses in their default states), which packing flips.
  writeFileSync(path.join(stub, 'electron'), `#!/bin/sh\necho "stub Electron"\n# ${FUSE_SENTINEL}\u0001\u0008${DEFAULT_FUSES}\n`);
  chmodSync(path.join(stub, 'electron'), 0o755);
  execFileSync(
    process.execPath,
    [path.join(ROOT, 'node_modules', 'electron-builder', 'cli.js'), '--linux', 'dir', '--x64', `-c.electronDist=${stub}`, `-c.directories.output=${path.join(work, 'dist')}`],
    { cwd: ROOT, stdio: 'pipe', env: { ...process.env, ELECTRON_BUILDER_CACHE: path.join(work, 'cache') } },
  );
  files = listPackage(asar, { isPack: false }).map((f) => f.split(path.sep).join('/'));
}, 180_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('the packed app', () => {
  it('holds the built main, preload and renderer, package.json and the runtime dependencies', () => {
    for (const file of ['/package.json', '/out/main/index.js', '/out/preload/preload.cjs', '/out/renderer/index.html', '/node_modules/better-sqlite3/lib/index.js', '/node_modules/zod/package.json', '/node_modules/undici/package.json', '/node_modules/csv-stringify/package.json']) {
      expect(files, file).toContain(file);
    }
    expect(files.some((f) => /^\/out\/renderer\/assets\/index-[\w-]+\.js$/.test(f))).toBe(true);
    expect(files.some((f) => /^\/out\/renderer\/assets\/index-[\w-]+\.css$/.test(f))).toBe(true);
    const pkg = JSON.parse(extractFile(asar, 'package.json').toString()) as { main: string; type: string };
    expect(files).toContain(`/${pkg.main}`);
  });

  it('has this platform’s SQLite binary unpacked (native code cannot load from an asar), and no other', () => {
    const unpacked = (f: string) => readFileSync(path.join(`${asar}.unpacked`, f));
    expect(unpacked('node_modules/better-sqlite3/prebuilds/linux-x64.node').subarray(1, 4).toString()).toBe('ELF');
    const binaries = files.filter((f) => f.endsWith('.node'));
    expect(binaries).toEqual(['/node_modules/better-sqlite3/prebuilds/linux-x64.node']);
  });

  it('holds no sources, tests, source maps, or SQLite C sources', () => {
    const forbidden = files.filter(
      (f) =>
        /^\/(src-main|src-renderer|test|resources|\.ci|\.github|coverage|test-artifacts)(\/|$)/.test(f) ||
        /\.map$/.test(f) ||
        (/\.ts$/.test(f) && !/\.d\.ts$/.test(f)) ||
        /\.svelte$/.test(f) ||
        /better-sqlite3\/(deps|src)\//.test(f) ||
        /^\/(tsconfig\.json|vitest\.config\.ts|electron\.vite\.config\.ts|eslint\.config\.js|electron-builder\.yml|package-lock\.json)$/.test(f),
    );
    expect(forbidden).toEqual([]);
  });

  it('has its Electron fuses flipped as electron-builder.yml says: no run-as-node, NODE_OPTIONS or --inspect; ASAR only, checked', () => {
    const binary = readFileSync(path.join(appDir, 'trackwatch')).toString('latin1');
    const at = binary.indexOf(FUSE_SENTINEL) + FUSE_SENTINEL.length;
    // runAsNode, cookieEncryption (inherited), nodeOptions, inspect, asarIntegrity, onlyAsar, v8Snapshot (inherited), fileProtocol
    expect(binary.slice(at + 2, at + 10)).toBe('00001100');
  });

  it('has a preload that is one CommonJS file needing only electron', () => {
    const preload = extractFile(asar, 'out/preload/preload.cjs').toString();
    expect(preload).not.toMatch(/^\s*import\s/m);
    const required = [...preload.matchAll(/require\((["'])([^"']+)\1\)/g)].map((m) => m[2]);
    expect(required).toEqual(['electron']);
  });
});
