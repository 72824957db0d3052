// Benchmark of the splits (issue 15), part (a): the Gbx reader over 5,000 ghost and replay files of real size (10-40
// KB, as the emulator serves them) against decompressing the same bodies alone with the same LZO1X decompressor,
// in one run. Reader and baseline alternate batch by batch over a few rounds and the best round of each is kept, so a
// busy machine slows both alike. Prints throughputs and the ratio; never asserts.
// Run: node test/bench/splits.bench.ts [files] [rounds]
import { decompressLzo1x, locateBody, readGbx, readHeader } from '../../src-main/core/gbx/index.ts';
import { generateDataset, replayBytesFor, replayDamageOf, type DatasetRecord } from '../../src-main/emulator/index.ts';
import { isMain, printRows, type BenchRow } from './report.ts';

interface Sample {
  file: Uint8Array;
  stream: Uint8Array;
  size: number;
}

/** `count` files the emulator would serve: ghosts and replays of every kind of map, none of the damaged ones. */
function files(count: number): Sample[] {
  const dataset = generateDataset({ seed: 15, maps: 40, players: 60, style: 'season' });
  const records = dataset.records.filter((r) => replayDamageOf(r) === undefined);
  const out: Sample[] = [];
  for (let i = 0; out.length < count; i++) {
    const base = records[i % records.length]!;
    // A new record ID per file: new bytes (other samples, other splits), as an archive of many runs holds.
    const record: DatasetRecord = { ...base, mapRecordId: `${base.mapRecordId.slice(0, 24)}${i.toString(16).padStart(12, '0')}` };
    if (replayDamageOf(record) !== undefined) continue;
    const file = new Uint8Array(replayBytesFor(record, dataset));
    const at = locateBody(file, readHeader(file));
    out.push({ file, stream: file.subarray(at.start, at.end), size: at.size });
  }
  return out;
}

function timed(run: () => void): number {
  const started = performance.now();
  run();
  return performance.now() - started;
}

/** (a) The reader's throughput against decompression alone: the walk over chunks should cost little on top. */
export async function readerThroughput(count = 5_000, rounds = 5): Promise<BenchRow[]> {
  const samples = files(count);
  const bytes = samples.reduce((sum, s) => sum + s.file.length, 0);
  const sizes = samples.map((s) => s.file.length).sort((a, b) => a - b);
  let checkpoints = 0;
  let decompressMs = Infinity;
  let readMs = Infinity;
  const BATCH = 100;
  for (let round = 0; round < rounds; round += 1) {
    let decompress = 0;
    let read = 0;
    checkpoints = 0;
    // Batch by batch, alternating which goes first: both meet the same machine, moment to moment.
    for (let from = 0; from < samples.length; from += BATCH) {
      const batch = samples.slice(from, from + BATCH);
      const decompressBatch = () => timed(() => {
        for (const s of batch) decompressLzo1x(s.stream, s.size);
      });
      const readBatch = () => timed(() => {
        for (const s of batch) for (const ghost of readGbx(s.file).ghosts) checkpoints += ghost.checkpoints.length;
      });
      if ((from / BATCH + round) % 2 === 0) {
        decompress += decompressBatch();
        read += readBatch();
      } else {
        read += readBatch();
        decompress += decompressBatch();
      }
    }
    decompressMs = Math.min(decompressMs, decompress);
    readMs = Math.min(readMs, read);
  }
  const rate = (ms: number) => `${((bytes / 1e6) / (ms / 1000)).toFixed(0)} MB/s, ${Math.round(samples.length / (ms / 1000)).toLocaleString('en-US')} files/s`;
  const ratio = readMs / decompressMs;
  const info = (figure: string, measured: string): BenchRow => ({ figure, measured, target: '', ok: true });
  return [
    info('files (emulator ghosts and replays)', `${samples.length.toLocaleString('en-US')}, ${(bytes / 1e6).toFixed(0)} MB, ${sizes[0]!.toLocaleString('en-US')} to ${sizes.at(-1)!.toLocaleString('en-US')} bytes (median ${sizes[sizes.length >> 1]!.toLocaleString('en-US')})`),
    info('baseline: LZO1X decompression of the bodies alone', `${rate(decompressMs)} (${decompressMs.toFixed(0)} ms, best of ${rounds})`),
    info('reader: header, body, chunk walk, ghosts', `${rate(readMs)} (${readMs.toFixed(0)} ms, best of ${rounds}; ${checkpoints.toLocaleString('en-US')} checkpoints read)`),
    { figure: 'ratio reader / decompression alone', measured: ratio.toFixed(2), target: '<= 1.3', ok: ratio <= 1.3 },
  ];
}

export async function run(count = 5_000, rounds = 5): Promise<BenchRow[]> {
  console.log(`splits bench (a): ${count.toLocaleString('en-US')} files read, against their bodies decompressed alone; ${rounds} rounds, batches interleaved`);
  const rows = await readerThroughput(count, rounds);
  printRows(rows);
  return rows;
}

if (isMain(import.meta.url)) {
  const [count, rounds] = process.argv.slice(2).map(Number);
  await run(count || undefined, rounds || undefined);
}
