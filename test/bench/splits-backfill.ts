// Benchmark of the splits (issue 15), part (b): the first-start backfill of archived replays. A temp data folder gets
// `count` records and their replay files (written by the emulator's writer, 10-40 KB), none read yet; a child process
// then opens it as a first start does and reads them all, while a timer measures how late the event loop answers (the
// window's requests wait that long). Prints wall time, peak memory and the longest block; never asserts.
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openStore, replayPath } from '../../src-main/core/store/index.ts';
import { ghostOfRecord, writeGhostFile } from '../../src-main/emulator/gbx/index.ts';
import { generateDataset } from '../../src-main/emulator/index.ts';
import { accountId, makeMap, makeRecord, mapId } from '../unit/store/fixtures.ts';
import type { BenchRow } from './report.ts';
import type { ChildResult } from './splits-backfill-child.ts';
import { DATA_NOW } from '../helpers/clock.ts';

const PLAYERS = 500;
const DISTINCT_FILES = 256;

/** Distinct ghost files of real size, from a generated dataset's runs; the archive repeats them under each record. */
function ghostFiles(): { bytes: Uint8Array; sha256: string }[] {
  const dataset = generateDataset({ now: DATA_NOW, seed: 15, maps: 40, players: 60, style: 'season' });
  const maps = new Map(dataset.maps.map((m) => [m.mapId, m]));
  return Array.from({ length: DISTINCT_FILES }, (_, i) => {
    const record = dataset.records[i % dataset.records.length]!;
    const ghost = ghostOfRecord(record, maps.get(record.mapId)!, undefined);
    const bytes = writeGhostFile({ ...ghost, samples: denseBytes(9_600 + ((i * 7_919) % 28_500), i + 1) });
    return { bytes, sha256: createHash('sha256').update(bytes).digest('hex') };
  });
}

function denseBytes(length: number, seed: number): Uint8Array {
  const words = new Uint32Array(Math.ceil(length / 4));
  let state = seed || 1;
  for (let i = 0; i < words.length; i++) {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    words[i] = state;
  }
  return new Uint8Array(words.buffer, 0, length);
}

/** A data folder as a Trackwatch from before splits left it: records and their downloaded, verified replays. */
async function archive(dir: string, count: number): Promise<number> {
  const files = ghostFiles();
  const store = openStore({ file: join(dir, 'trackwatch.sqlite') });
  const maps = Math.ceil(count / PLAYERS);
  store.maps.upsert(Array.from({ length: maps }, (_, m) => makeMap(m + 1)));
  const run = store.syncRuns.start();
  let bytes = 0;
  let made = 0;
  for (let m = 1; m <= maps; m++) {
    const records = Array.from({ length: Math.min(PLAYERS, count - made) }, (_, p) => makeRecord(m, p + 1));
    store.records.applyRecords({ mapId: mapId(m), scope: 'PersonalBest', seenAt: '2025-01-01T00:00:00.000Z', syncRunId: run, records });
    const written = await Promise.all(records.map(async (record, p) => {
      const file = files[(m * PLAYERS + p) % files.length]!;
      const path = replayPath(record.mapId, accountId(p + 1), record.mapRecordId);
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), file.bytes);
      return { record, path, file };
    }));
    store.transaction(() => {
      for (const { record, path, file } of written) store.replays.markDownloaded(record, path, file.bytes.length, file.sha256);
    });
    made += records.length;
    bytes += written.reduce((sum, w) => sum + w.file.bytes.length, 0);
  }
  store.close();
  return bytes;
}

export async function backfillBench(count = 50_000): Promise<BenchRow[]> {
  const dir = await mkdtemp(join(tmpdir(), 'tw-bench-backfill-'));
  try {
    const setup = performance.now();
    const bytes = await archive(dir, count);
    const setupS = (performance.now() - setup) / 1000;
    const result = await new Promise<ChildResult>((resolve, reject) => {
      const proc = fork(join(import.meta.dirname, 'splits-backfill-child.ts'), [dir], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      proc.once('message', (m) => resolve(m as ChildResult));
      proc.once('error', reject);
      proc.once('exit', (code) => (code === 0 ? undefined : reject(new Error(`the backfill child exited with ${code}`))));
    });
    const info = (figure: string, measured: string): BenchRow => ({ figure, measured, target: '', ok: true });
    return [
      info('archive (emulator ghosts, written before the backfill)', `${count.toLocaleString('en-US')} replays, ${(bytes / 1e9).toFixed(2)} GB (${setupS.toFixed(0)} s to write)`),
      info('first-start backfill: wall time', `${(result.wallMs / 1000).toFixed(1)} s, ${Math.round(count / (result.wallMs / 1000)).toLocaleString('en-US')} replays/s (${result.read.toLocaleString('en-US')} read, ${result.unreadable} unreadable, ${result.slices.toLocaleString('en-US')} slices)`),
      { figure: 'peak memory of the process (RSS)', measured: `${result.peakRssMb.toFixed(0)} MB (${result.startRssMb.toFixed(0)} MB at start)`, target: '< 250 MB', ok: result.peakRssMb < 250 },
      info('longest the event loop waited (the window answering)', `${result.maxBlockMs.toFixed(1)} ms (99th percentile ${result.p99BlockMs.toFixed(1)} ms; slices aim at 15 ms)`),
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
