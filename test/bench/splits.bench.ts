// Benchmark of the splits (issue 15), part (a): the Gbx reader over 5,000 ghost and replay files of real size (10-40
// KB, written by the emulator's writer) against decompressing the same bodies alone with the same LZO1X decompressor,
// in one run. Reader and baseline alternate batch by batch over several rounds, so a busy machine slows both alike;
// the ratio is the median round's on CPU time (wall time beside it, with each one's spread over the rounds), the
// throughputs the best round's. Prints figures; never asserts.
// Part (b), the first-start backfill, is in splits-backfill.ts.
// Run: node test/bench/splits.bench.ts [files] [rounds] [archived replays]
import { decompressLzo1x, locateBody, readGbx, readHeader } from '../../src-main/core/gbx/index.ts';
import { authorGhostOf, replayMapOf, ghostOfRecord, writeGhostFile, writeReplayFile } from '../../src-main/emulator/gbx/index.ts';
import { generateDataset, replayKindOf } from '../../src-main/emulator/index.ts';
import { availableParallelism, loadavg } from 'node:os';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { isMain, printRows, type BenchRow } from './report.ts';
import { backfillBench } from './splits-backfill.ts';
import { DATA_NOW } from '../helpers/clock.ts';

interface Sample {
  file: Uint8Array;
  stream: Uint8Array;
  size: number;
}

/** Dense bytes standing for a run's recorded samples (xorshift32): what real ghosts mostly are. */
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

/**
 * `count` files written by the emulator's writer for the records of a generated dataset, ghosts and replays as it
 * serves them, their sizes spread evenly over 10-40 KB (the size of real ones).
 */
function files(count: number): Sample[] {
  const dataset = generateDataset({ now: DATA_NOW, seed: 15, maps: 40, players: 60, style: 'season' });
  const maps = new Map(dataset.maps.map((m) => [m.mapId, m]));
  const out: Sample[] = [];
  for (let i = 0; i < count; i++) {
    const record = dataset.records[i % dataset.records.length]!;
    const map = maps.get(record.mapId)!;
    const ghost = { ...ghostOfRecord(record, map, dataset.displayNames?.[record.accountId]), samples: denseBytes(9_600 + ((i * 7_919) % 28_500), i + 1) };
    const file = replayKindOf(record) === 'replay'
      ? writeReplayFile({ map: replayMapOf(map), ghosts: [ghost], authorGhost: authorGhostOf(map, record) })
      : writeGhostFile(ghost);
    const at = locateBody(file, readHeader(file));
    out.push({ file, stream: file.subarray(at.start, at.end), size: at.size });
  }
  return out;
}

/** One run's cost: wall time, and the process's CPU time (user + system), which a busy machine's waits do not swell. */
interface Cost {
  wall: number;
  cpu: number;
}

// A young-generation collection after each batch, timed with it: each side pays for collecting its own garbage (the
// bodies it decompressed, the reader's objects) instead of whichever side a collection happens to interrupt.
setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as (options: { type: 'minor' | 'major'; execution: 'sync' }) => void;

function timed(run: () => void): Cost {
  const cpu = process.cpuUsage();
  const started = performance.now();
  run();
  collect({ type: 'minor', execution: 'sync' });
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { wall, cpu: (used.user + used.system) / 1000 };
}

const median = (values: number[]): number => [...values].sort((x, y) => x - y)[values.length >> 1]!;

/** The median and the spread of per-round ratios: "1.21 (rounds 1.10 to 1.45, middle half 1.15 to 1.30)". */
function spread(ratios: number[]): string {
  const sorted = [...ratios].sort((x, y) => x - y);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(2);
  return `${median(ratios).toFixed(2)} (rounds ${at(0)} to ${at(1)}, middle half ${at(0.25)} to ${at(0.75)})`;
}

/** (a) The reader's throughput against decompression alone: the walk over chunks should cost little on top. */
export async function readerThroughput(count = 5_000, rounds = 15): Promise<BenchRow[]> {
  const samples = files(count);
  const bytes = samples.reduce((sum, s) => sum + s.file.length, 0);
  const sizes = samples.map((s) => s.file.length).sort((a, b) => a - b);
  const load = loadavg()[0]!.toFixed(1);
  let checkpoints = 0;
  let decompressMs = Infinity;
  let readMs = Infinity;
  const cpuRatios: number[] = [];
  const wallRatios: number[] = [];
  const BATCH = 100;
  // Round -1 warms both sides up (the compiler's work lands on the first calls) and is not counted.
  for (let round = -1; round < rounds; round += 1) {
    const decompress: Cost = { wall: 0, cpu: 0 };
    const read: Cost = { wall: 0, cpu: 0 };
    const add = (to: Cost, cost: Cost) => {
      to.wall += cost.wall;
      to.cpu += cost.cpu;
    };
    checkpoints = 0;
    // Batch by batch, alternating which goes first: both meet the same machine, moment to moment. Both sides take the
    // same bodies the same way: a fresh output buffer per body, as readGbx gets from decompressLzo1x.
    for (let from = 0; from < samples.length; from += BATCH) {
      const batch = samples.slice(from, from + BATCH);
      const decompressBatch = () => add(decompress, timed(() => {
        for (const s of batch) decompressLzo1x(s.stream, s.size);
      }));
      const readBatch = () => add(read, timed(() => {
        for (const s of batch) for (const ghost of readGbx(s.file).ghosts) checkpoints += ghost.checkpoints.length;
      }));
      if ((from / BATCH + round) % 2 === 0) {
        decompressBatch();
        readBatch();
      } else {
        readBatch();
        decompressBatch();
      }
    }
    if (round < 0) continue;
    decompressMs = Math.min(decompressMs, decompress.wall);
    readMs = Math.min(readMs, read.wall);
    cpuRatios.push(read.cpu / decompress.cpu);
    wallRatios.push(read.wall / decompress.wall);
  }
  const rate = (ms: number) => `${((bytes / 1e6) / (ms / 1000)).toFixed(0)} MB/s, ${Math.round(samples.length / (ms / 1000)).toLocaleString('en-US')} files/s`;
  // Within a round the two met the same machine, batch by batch; the machine's speed swings between rounds, so the
  // figure is the median of the rounds' own ratios, not one side's best against the other's. It is taken on CPU time:
  // on a machine shared with other work, wall time also counts the waits for a core, which land on either side.
  const ratio = median(cpuRatios);
  const info = (figure: string, measured: string): BenchRow => ({ figure, measured, target: '', ok: true });
  return [
    info('files (emulator ghosts and replays)', `${samples.length.toLocaleString('en-US')}, ${(bytes / 1e6).toFixed(0)} MB, ${sizes[0]!.toLocaleString('en-US')} to ${sizes.at(-1)!.toLocaleString('en-US')} bytes (median ${sizes[sizes.length >> 1]!.toLocaleString('en-US')})`),
    info('machine load (1-minute average, at the start)', `${load} on ${availableParallelism()} cores`),
    info('baseline: LZO1X decompression of the bodies alone', `${rate(decompressMs)} (${decompressMs.toFixed(0)} ms wall, best of ${rounds})`),
    info('reader: header, body, chunk walk, ghosts', `${rate(readMs)} (${readMs.toFixed(0)} ms wall, best of ${rounds}; ${checkpoints.toLocaleString('en-US')} checkpoints read)`),
    info('ratio on wall time (median round)', spread(wallRatios)),
    { figure: 'ratio reader / decompression alone, CPU time (median round)', measured: spread(cpuRatios), target: '<= 1.3', ok: ratio <= 1.3 },
  ];
}

export async function run(count = 5_000, rounds = 15, archived = 50_000): Promise<BenchRow[]> {
  console.log(`splits bench (a): ${count.toLocaleString('en-US')} files read, against their bodies decompressed alone; ${rounds} rounds, batches interleaved`);
  const rows = await readerThroughput(count, rounds);
  printRows(rows);
  console.log(`\nsplits bench (b): the first-start backfill of ${archived.toLocaleString('en-US')} archived replays`);
  const backfill = await backfillBench(archived);
  printRows(backfill);
  return [...rows, ...backfill];
}

if (isMain(import.meta.url)) {
  const [count, rounds, archived] = process.argv.slice(2).map(Number);
  await run(count || undefined, rounds || undefined, archived || undefined);
}
