// A sync killed with SIGKILL at chosen moments, then run again, ends with the same store as an uninterrupted one:
// PRAGMA integrity_check ok, nothing lost, no stray temporary files, no lock left behind. Each kill lands on a request
// the sync makes (a proxy in front of the emulator sees it), never after a random delay: on a loaded machine the
// moment is the same, only later.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDataset, startEmulator, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { openTrackwatch } from '../../../src-main/core/trackwatch.ts';
import { dumpStore, strayTempFiles, tempDataDir } from '../../helpers/sync.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const BIN = join(import.meta.dirname, '../../../bin/trackwatch.js');

type Kind = 'maps' | 'records' | 'replay';

function kindOf(url: string): Kind | undefined {
  if (url.startsWith('/maps/')) return 'maps';
  if (url.startsWith('/v2/mapRecords/')) return 'records';
  if (url.startsWith('/storageObjects/') || /^\/mapRecords\/[^/]+\/replay/.test(url)) return 'replay';
  return undefined;
}

/** When to kill: on the `nth` request of a kind, as it arrives (before it is answered) or once its answer is sent. */
interface KillPoint {
  kind: Kind;
  nth: number;
  when: 'arrives' | 'answered';
}

/**
 * The emulator behind a proxy that counts the sync's requests by kind and kills the sync at the chosen one. Addresses
 * in the emulator's answers (replay URLs) are rewritten to the proxy's, so downloads go through it too.
 */
async function killingProxy(target: string): Promise<{ url: string; arm: (child: ChildProcess, point: KillPoint) => Promise<boolean>; close: () => Promise<void> }> {
  let self = '';
  let armed: { child: ChildProcess; point: KillPoint; seen: number; fired: (hit: boolean) => void } | undefined;
  const kill = (): void => {
    if (!armed) return;
    armed.child.kill('SIGKILL');
    armed.fired(true);
    armed = undefined;
  };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const kind = kindOf(req.url ?? '');
    let hit = false;
    if (armed && kind === armed.point.kind && ++armed.seen === armed.point.nth) {
      hit = true;
      if (armed.point.when === 'arrives') {
        kill();
        req.socket.destroy();
        return;
      }
    }
    const upstream = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (answer) => {
      if (hit) res.once('finish', kill);
      if (kind === 'replay' || !String(answer.headers['content-type']).includes('json')) {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on('data', (chunk: Buffer) => chunks.push(chunk));
      answer.on('end', () => {
        const body = Buffer.from(Buffer.concat(chunks).toString('utf8').replaceAll(target, self));
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'content-length': String(body.length) });
        res.end(body);
      });
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  self = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: self,
    arm: (child, point) => new Promise<boolean>((fired) => {
      armed = { child, point, seen: 0, fired };
      child.once('exit', () => {
        if (armed?.child === child) {
          armed = undefined;
          fired(false);
        }
      });
    }),
    close: () => new Promise((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
  };
}

function runCli(args: string[]): { child: ChildProcess; done: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> } {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, stderr }));
  });
  return { child, done };
}

describe('a sync killed with SIGKILL at chosen moments', () => {
  const dataset = generateDataset({ now: DATA_NOW, seed: 23, maps: 8, players: 60 });
  let emulator: RunningEmulator;
  let proxy: Awaited<ReturnType<typeof killingProxy>>;
  beforeAll(async () => {
    emulator = await startEmulator({ dataset, latencyMs: 10 });
    proxy = await killingProxy(emulator.url);
  });
  afterAll(async () => {
    await proxy.close();
    await emulator.close();
  });

  async function prepare(dir: string): Promise<void> {
    const tw = await openTrackwatch({ dataDir: dir, apiUrl: emulator.url });
    await tw.addMaps('Watched', dataset.maps.map((m) => m.mapUid), { lookUp: false });
    tw.store.players.add('Watched', [...new Set(dataset.records.map((r) => r.accountId))].map((accountId) => ({ accountId })));
    await tw.close();
  }

  // Looking maps up; between records requests; as a replay download starts; just after a replay was sent (while
  // it is written and renamed into place); and once more in the records of a later run.
  const KILLS: KillPoint[] = [
    { kind: 'maps', nth: 1, when: 'arrives' },
    { kind: 'records', nth: 4, when: 'answered' },
    { kind: 'replay', nth: 20, when: 'arrives' },
    { kind: 'replay', nth: 100, when: 'answered' },
    { kind: 'records', nth: 2, when: 'arrives' },
  ];

  it('then run again, ends with the same store, integrity ok, and no stray temporary files', async () => {
    const reference = await tempDataDir();
    const victim = await tempDataDir();
    try {
      await prepare(reference.dir);
      const clean = runCli(['--data-dir', reference.dir, '--api-url', emulator.url, '--max-rps', '2000', 'sync', '--yes']);
      expect((await clean.done).code, (await clean.done).stderr).toBe(0);

      await prepare(victim.dir);
      for (const point of KILLS) {
        const run = runCli(['--data-dir', victim.dir, '--api-url', proxy.url, '--max-rps', '2000', 'sync', '--yes']);
        const fired = await proxy.arm(run.child, point);
        const ended = await run.done;
        expect(fired, `kill at ${JSON.stringify(point)}: ${ended.stderr}`).toBe(true);
        expect(ended.signal).toBe('SIGKILL');
      }
      const last = runCli(['--data-dir', victim.dir, '--api-url', proxy.url, '--max-rps', '2000', 'sync', '--yes']);
      expect((await last.done).code, (await last.done).stderr).toBe(0);

      const open = async (dir: string) => openTrackwatch({ dataDir: dir, apiUrl: emulator.url });
      const expected = await open(reference.dir);
      const actual = await open(victim.dir);
      try {
        expect(actual.store.db.pragma('integrity_check', { simple: true })).toBe('ok');
        expect(dumpStore(actual.store)).toEqual(dumpStore(expected.store));
        expect(actual.store.replays.list().filter((r) => r.state === 'downloaded').length).toBeGreaterThan(100);
        const runs = actual.store.syncRuns.list(50);
        expect(runs.filter((r) => r.outcome === 'running')).toEqual([]);
        // Every kill landed mid-sync, by construction: each of those runs is closed as interrupted.
        const interrupted = runs.filter((r) => r.errors.some((e) => e.message.startsWith('interrupted')));
        expect(interrupted).toHaveLength(KILLS.length);
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
  }, 180_000);
});
