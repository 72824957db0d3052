// The CSV export split across two worker threads (csv-worker.ts): each reads the database through its own connection,
// both at one snapshot (store/export-split.ts), and takes alternate blocks of maps; this thread writes their chunks
// in the file's order. One thread reads and encodes about 110,000 rows a second, and the sqlite3 shell's own export
// of the same rows is about twice as fast (test/bench/csv.bench.ts): two threads close that gap.
import { Worker } from 'node:worker_threads';
import { beginOnOneSnapshot, type ExportPlan } from '../store/index.ts';
import type { Block, FromWorker, ToWorker, WorkerSetup } from './csv-worker.ts';

/**
 * Below this many rows the export runs in the calling thread. Two workers cost about 0.3 s of CPU more than one thread
 * whatever the size (each starts, loads the export's modules, opens the database and compiles the hot code afresh):
 * measured at 20,000 / 60,000 / 200,000 rows, 0.38 / 0.80 / 2.6 s of CPU in one thread against 0.70 / 1.2 / 3.3 s in
 * two. From 100,000 rows the split saves about a quarter of the time on two free cores for that extra CPU.
 */
export const PARALLEL_MIN_ROWS = 100_000;

const WORKERS = 2;

/** A block holds at most this many rows (about 1 MB of CSV, four chunks), so both workers stay busy within WINDOW. */
const BLOCK_ROWS = 4000;
/** At least this many blocks per export, so a small forced split still alternates between the workers. */
const MIN_BLOCKS = 64;
/** Chunks (256 KiB each) a worker may hand over before they are written: 4 MiB a worker, whatever the export's size. */
const WINDOW = 16;

/**
 * Young generation of each worker: its garbage is short-lived (a page, a map's rows). Peak memory of the whole export
 * of 1M rows measured 260 MB with 8, 170 to 197 MB with 16, 230 MB with 32 (a smaller one promotes more to the old
 * generation, a larger one holds more garbage); the target is under 250 MB (test/bench/csv.bench.ts).
 */
const WORKER_YOUNG_MB = 16;

/** The worker's module: the TypeScript source when this runs from the sources, the bundle's own file in the app. */
const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? './csv-worker.ts' : './csv-worker.js', import.meta.url);

/**
 * Cuts the maps into contiguous blocks of whole maps of about `size` rows, covering every map ref (a map the plan did
 * not count still falls in a block): [index, first map ref, last map ref].
 */
export function cutBlocks(mapRows: readonly (readonly [number, number])[]): Block[] {
  const total = mapRows.reduce((sum, [, rows]) => sum + rows, 0);
  const size = Math.max(1, Math.min(BLOCK_ROWS, Math.ceil(total / MIN_BLOCKS)));
  const blocks: Block[] = [];
  let first = Number.MIN_SAFE_INTEGER;
  let rows = 0;
  for (const [map, count] of mapRows) {
    rows += count;
    if (rows >= size) {
      blocks.push([blocks.length, first, map]);
      first = map + 1;
      rows = 0;
    }
  }
  // The last block runs to the end: maps after the last counted one (none, unless a sync added them) fall in it.
  const end = blocks.at(-1);
  if (rows > 0 || !end) blocks.push([blocks.length, first, Number.MAX_SAFE_INTEGER]);
  else blocks[blocks.length - 1] = [end[0], end[1], Number.MAX_SAFE_INTEGER];
  return blocks;
}

type Event = { worker: number; message: FromWorker } | { worker: number; failure: string };

/** Messages and failures of the workers, taken one at a time. */
class Inbox {
  #events: Event[] = [];
  #wake: (() => void) | undefined;
  readonly #signal: AbortSignal | undefined;
  readonly #onAbort = (): void => this.#wake?.();
  constructor(signal: AbortSignal | undefined) {
    this.#signal = signal;
    signal?.addEventListener('abort', this.#onAbort, { once: true });
  }
  /** Stops listening to the signal, which may outlive the export. */
  close(): void {
    this.#signal?.removeEventListener('abort', this.#onAbort);
  }
  push(event: Event): void {
    this.#events.push(event);
    this.#wake?.();
    this.#wake = undefined;
  }
  async next(): Promise<Event> {
    for (;;) {
      this.#signal?.throwIfAborted();
      const event = this.#events.shift();
      if (event) return event;
      await new Promise<void>((resolve) => (this.#wake = resolve));
    }
  }
}

export interface ParallelExport {
  plan: ExportPlan;
  viewer: string | null | undefined;
  header: string;
  /**
   * Hands a chunk to the output, waiting while the output is full; calls `written` once the output has written it
   * (its memory then goes back to its worker).
   */
  write: (chunk: Buffer, written?: () => void) => Promise<void>;
  signal: AbortSignal | undefined;
}

/**
 * Writes the header and every row through the workers; the number of rows, or null (nothing written) when commits
 * kept falling between the workers' snapshots, for the caller to export in one thread. Stops the workers on abort
 * or on a failure, which it throws as one line.
 */
export async function writeParallel({ plan, viewer, header, write, signal }: ParallelExport): Promise<number | null> {
  const inbox = new Inbox(signal);
  const setup: WorkerSetup = { source: plan.source, viewer, window: WINDOW };
  const workers = Array.from({ length: WORKERS }, (_, i) => {
    const worker = new Worker(WORKER_URL, { workerData: setup, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB } });
    worker.on('message', (message: FromWorker) => inbox.push({ worker: i, message }));
    worker.on('error', (error: Error) => inbox.push({ worker: i, failure: error.message }));
    worker.on('exit', (code) => inbox.push({ worker: i, failure: `it stopped early (exit code ${code})` }));
    return worker;
  });
  const send = (message: ToWorker): void => workers.forEach((w) => w.postMessage(message));
  const all = async (kind: 'begun' | 'ended'): Promise<void> => {
    for (let heard = 0; heard < WORKERS;) if (expect(await inbox.next()).kind === kind) heard += 1;
  };
  try {
    const agreed = await beginOnOneSnapshot(plan.version, async () => {
      send({ kind: 'begin' });
      await all('begun');
    }, async () => {
      send({ kind: 'end' });
      await all('ended');
    });
    if (!agreed) return null;
    await write(Buffer.from(header));
    const blocks = cutBlocks(plan.mapRows);
    workers.forEach((w, i) => w.postMessage({ kind: 'blocks', blocks: blocks.filter(([index]) => index % WORKERS === i) } satisfies ToWorker));
    return await writeInOrder(blocks.length, workers, inbox, write);
  } finally {
    inbox.close();
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

/** Writes the blocks' chunks in the blocks' order as they come; the rows written. */
async function writeInOrder(blocks: number, workers: Worker[], inbox: Inbox, write: ParallelExport['write']): Promise<number> {
  const waiting = new Map<number, { chunks: Buffer[]; rows: number | undefined }>();
  const of = (block: number): { chunks: Buffer[]; rows: number | undefined } => {
    let entry = waiting.get(block);
    if (!entry) waiting.set(block, (entry = { chunks: [], rows: undefined }));
    return entry;
  };
  let current = 0;
  let rows = 0;
  while (current < blocks) {
    const message = expect(await inbox.next());
    if (message.kind === 'chunk') of(message.block).chunks.push(Buffer.from(message.bytes, 0, message.length));
    else if (message.kind === 'block') of(message.block).rows = message.rows;
    else continue;
    // The block being written, then each following block already complete or begun.
    for (let entry = waiting.get(current); entry; entry = waiting.get(current)) {
      const owner = workers[current % WORKERS]!;
      for (let chunk = entry.chunks.shift(); chunk; chunk = entry.chunks.shift()) {
        const bytes = chunk.buffer as ArrayBuffer;
        await write(chunk, () => owner.postMessage({ kind: 'written', bytes } satisfies ToWorker, [bytes]));
      }
      if (entry.rows === undefined) break;
      rows += entry.rows;
      waiting.delete(current);
      current += 1;
    }
  }
  return rows;
}

function expect(event: Event): FromWorker {
  if ('failure' in event) throw new Error(`the CSV export failed in worker thread ${event.worker + 1}: ${event.failure}`);
  if (event.message.kind === 'failed') throw new Error(`the CSV export failed in worker thread ${event.worker + 1}: ${event.message.message}`);
  return event.message;
}
