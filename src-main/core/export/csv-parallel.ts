// The CSV export split across two worker threads (csv-worker.ts): each reads the database through its own connection,
// both at one snapshot (store/export-split.ts), and claims the next block of maps whenever it is free (csv-blocks.ts);
// this thread writes their chunks in the file's order. One thread reads and encodes 1M rows in about 7.5 s, and the
// sqlite3 shell's own export of the same rows takes 4.3 to 5.4 s on the same machine (test/bench/csv.bench.ts): two
// threads bring the export to 1.0 to 1.2 times the shell's time. At 1M rows a worker spends about 0.3 s loading its
// modules and opening its snapshot, then about 37% of its time in SQLite's reads (profiled with --cpu-prof; about 25%
// more per row than one thread alone, the two cores sharing their caches) and 9% collecting garbage.
import { Worker } from 'node:worker_threads';
import { beginOnOneSnapshot, type ExportPlan } from '../store/index.ts';
import type { FromWorker, ToWorker, WorkerSetup } from './csv-worker.ts';

/**
 * Below this many rows the export runs in the calling thread. Two workers cost about 0.3 s of CPU more than one thread
 * whatever the size (each starts, loads the export's modules, opens the database and compiles the hot code afresh):
 * measured at 20,000 / 60,000 / 200,000 rows, 0.38 / 0.80 / 2.6 s of CPU in one thread against 0.70 / 1.2 / 3.3 s in
 * two. From 100,000 rows the split saves about a quarter of the time on two free cores for that extra CPU.
 */
export const PARALLEL_MIN_ROWS = 100_000;

const WORKERS = 2;

/** Chunks (256 KiB each) a worker may hand over before they are written: 4 MiB a worker, whatever the export's size. */
const WINDOW = 16;

/**
 * Young generation of each worker: its garbage is short-lived (a page, a map's rows). Peak memory of the whole export
 * of 1M rows measured 260 MB with 8, 170 to 197 MB with 16, 230 MB with 32 (a smaller one promotes more to the old
 * generation, a larger one holds more garbage); the target is under 250 MB (test/bench/csv.bench.ts). With 48, each
 * worker's garbage collection took 0.15 s less but its SQLite reads 0.25 s more (a nursery the caches no longer hold).
 */
const WORKER_YOUNG_MB = 16;

/** The worker's module: the TypeScript source when this runs from the sources, the bundle's own file in the app. */
const WORKER_URL = new URL(import.meta.url.endsWith('.ts') ? './csv-worker.ts' : './csv-worker.js', import.meta.url);

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
  const setup: WorkerSetup = { source: plan.source, viewer, window: WINDOW, claims: new SharedArrayBuffer(4) };
  const workers = Array.from({ length: WORKERS }, (_, i) => {
    const worker = new Worker(WORKER_URL, { workerData: setup, resourceLimits: { maxYoungGenerationSizeMb: WORKER_YOUNG_MB } });
    worker.on('message', (message: FromWorker) => inbox.push({ worker: i, message }));
    worker.on('error', (error: Error) => inbox.push({ worker: i, failure: error.message }));
    worker.on('exit', (code) => inbox.push({ worker: i, failure: `it stopped early (exit code ${code})` }));
    return worker;
  });
  const send = (message: ToWorker): void => workers.forEach((w) => w.postMessage(message));
  let maps: number[] = [];
  const all = async (kind: 'begun' | 'ended'): Promise<void> => {
    maps = [];
    for (let heard = 0; heard < WORKERS;) {
      const message = expect(await inbox.next());
      if (message.kind !== kind) continue;
      heard += 1;
      if (message.kind === 'begun') maps.push(message.maps);
    }
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
    if (maps.some((n) => n !== maps[0])) throw new Error(`the CSV export's worker threads read different snapshots (${maps.join(' and ')} maps)`);
    await write(Buffer.from(header));
    send({ kind: 'go' });
    return await writeInOrder(maps[0]!, workers, inbox, write);
  } finally {
    inbox.close();
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

interface Waiting {
  /** Each chunk with the worker that made it, which gets its memory back once it is written. */
  chunks: [Buffer, number][];
  /** Where the following block starts, once this block is complete. */
  next: number | undefined;
  rows: number;
}

/** Writes the blocks' chunks in the blocks' order (block indexes 0 to `maps`) as they come; the rows written. */
async function writeInOrder(maps: number, workers: Worker[], inbox: Inbox, write: ParallelExport['write']): Promise<number> {
  const waiting = new Map<number, Waiting>();
  const of = (block: number): Waiting => {
    let entry = waiting.get(block);
    if (!entry) waiting.set(block, (entry = { chunks: [], next: undefined, rows: 0 }));
    return entry;
  };
  let current = 0;
  let rows = 0;
  while (current < maps) {
    const event = await inbox.next();
    const message = expect(event);
    if (message.kind === 'chunk') of(message.block).chunks.push([Buffer.from(message.bytes, 0, message.length), event.worker]);
    else if (message.kind === 'block') Object.assign(of(message.block), { next: message.next, rows: message.rows });
    else continue;
    // The block being written, then each following block already complete or begun.
    for (let entry = waiting.get(current); entry; entry = waiting.get(current)) {
      for (let next = entry.chunks.shift(); next; next = entry.chunks.shift()) {
        const [chunk, owner] = next;
        const bytes = chunk.buffer as ArrayBuffer;
        await write(chunk, () => workers[owner]!.postMessage({ kind: 'written', bytes } satisfies ToWorker, [bytes]));
      }
      if (entry.next === undefined) break;
      rows += entry.rows;
      waiting.delete(current);
      current = entry.next;
    }
  }
  return rows;
}

function expect(event: Event): FromWorker {
  if ('failure' in event) throw new Error(`the CSV export failed in worker thread ${event.worker + 1}: ${event.failure}`);
  if (event.message.kind === 'failed') throw new Error(`the CSV export failed in worker thread ${event.worker + 1}: ${event.message.message}`);
  return event.message;
}
