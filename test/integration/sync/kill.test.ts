// A sync killed with SIGKILL at random moments, then run again, ends with the same store as an uninterrupted one:
// PRAGMA integrity_check ok, nothing lost, no stray temporary files, no lock left behind.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset, startEmulator, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { openTrackwatch } from '../../../src-main/core/trackwatch.ts';
import { mulberry32 } from '../../../src-main/emulator/prng.ts';
import { dumpStore, strayTempFiles, tempDataDir } from '../../helpers/sync.ts';

const BIN = join(import.meta.dirname, '../../../bin/trackwatch.js');

function runCli(args: string[], killAfterMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stderr });
    });
  });
}

describe('a sync killed with SIGKILL at random points', () => {
  const dataset = generateDataset({ seed: 23, maps: 8, players: 60 });
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ dataset, latencyMs: 10 });
  });
  afterAll(async () => {
    await emulator.close();
  });

  async function prepare(dir: string): Promise<void> {
    const tw = await openTrackwatch({ dataDir: dir, apiUrl: emulator.url });
    await tw.addMaps('Watched', dataset.maps.map((m) => m.mapUid), { lookUp: false });
    tw.addPlayers('Watched', [...new Set(dataset.records.map((r) => r.accountId))].map((accountId) => ({ accountId })));
    await tw.close();
  }

  it('then run again, ends with the same store, integrity ok, and no stray temporary files', async () => {
    const reference = await tempDataDir();
    const victim = await tempDataDir();
    try {
      await prepare(reference.dir);
      const clean = await runCli(['--data-dir', reference.dir, '--api-url', emulator.url, '--max-rps', '150', 'sync']);
      expect(clean.code, clean.stderr).toBe(0);

      await prepare(victim.dir);
      const random = mulberry32(4242);
      const kills: number[] = [];
      for (let i = 0; i < 4; i++) {
        // Node starts in about half a second; the sync itself takes two to three seconds. Land anywhere in both.
        const after = Math.round(700 + random() * 2300);
        const run = await runCli(['--data-dir', victim.dir, '--api-url', emulator.url, '--max-rps', '150', 'sync'], after);
        kills.push(after);
        if (run.signal !== 'SIGKILL') expect(run.code, run.stderr).toBe(0);
      }
      const last = await runCli(['--data-dir', victim.dir, '--api-url', emulator.url, '--max-rps', '150', 'sync']);
      expect(last.code, `kills at ${kills.join(', ')} ms: ${last.stderr}`).toBe(0);

      const open = async (dir: string) => openTrackwatch({ dataDir: dir, apiUrl: emulator.url });
      const expected = await open(reference.dir);
      const actual = await open(victim.dir);
      try {
        expect(actual.store.db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(dumpStore(actual.store)).toEqual(dumpStore(expected.store));
        expect(actual.store.replays.list().filter((r) => r.state === 'downloaded').length).toBeGreaterThan(100);
        const runs = actual.store.syncRuns.list(50);
        expect(runs.filter((r) => r.outcome === 'running')).toEqual([]);
        // The kills landed mid-sync (else this test would prove nothing): those runs are closed as interrupted.
        const interrupted = runs.filter((r) => r.errors.some((e) => e.message.startsWith('interrupted')));
        expect(interrupted.length, `kills at ${kills.join(', ')} ms`).toBeGreaterThanOrEqual(2);
      } finally {
        await expected.close();
        await actual.close();
      }
      expect(await strayTempFiles(victim.dir)).toEqual([]);
      expect(existsSync(join(victim.dir, 'sync.lock'))).toBe(false);
    } finally {
      await reference.remove();
      await victim.remove();
    }
  }, 120_000);
});
