// A worker thread of an export split across threads (csv-parallel.ts): it opens its own reader of the database when
// told to begin (the coordinator makes both workers' snapshots one), then writes its blocks of maps as chunks of
// whole CSV lines, the same bytes the calling thread would write, handing each chunk's memory over to the coordinator.
// It holds at most `window` chunks the coordinator has not written yet.
import { parentPort, workerData } from 'node:worker_threads';
import { openExportReader, type ExportReader, type ExportSource } from '../store/export-cursor.ts';
import { CHUNK_BYTES, CsvWriter, LineChunks, mapLines } from './csv-lines.ts';
import { claimBlock } from './csv-blocks.ts';

export interface WorkerSetup {
  source: ExportSource;
  /** The account the records were read with (settings.viewer()): the ranks read it as every view does. */
  viewer: string | null | undefined;
  /** Chunks this worker may hand over before the coordinator has written them. */
  window: number;
  /** [next map to claim], shared by the workers: an index into the snapshot's maps in ref order (claimBlock). */
  claims: SharedArrayBuffer;
}

/** 'written' hands a chunk's memory back once the output has written it, for the worker to fill again. */
export type ToWorker = { kind: 'begin' } | { kind: 'end' } | { kind: 'go' } | { kind: 'written'; bytes: ArrayBuffer };

/**
 * `begun` says how many maps the snapshot holds (the blocks' indexes run up to it); a block is named by its first
 * map's index, and its `block` message says where the next block starts.
 */
export type FromWorker =
  | { kind: 'begun'; maps: number }
  | { kind: 'ended' }
  | { kind: 'chunk'; block: number; bytes: ArrayBuffer; length: number }
  | { kind: 'block'; block: number; next: number; rows: number }
  | { kind: 'failed'; message: string };

const port = parentPort;
if (!port) throw new Error('csv-worker.ts runs only as a worker thread (export/csv-parallel.ts starts it)');
const setup = workerData as WorkerSetup;
const post = (message: FromWorker, transfer?: ArrayBuffer[]): void => port.postMessage(message, transfer);

let reader: ExportReader | undefined;
let credit = setup.window;
let wake: (() => void) | undefined;
/** Chunks the output has written, to fill again: the worker's memory stays at about `window` chunks. */
const free: ArrayBuffer[] = [];
const allocate = (): Buffer => {
  const bytes = free.pop();
  // Never from Buffer's shared pool: a chunk's memory is handed over whole.
  return bytes ? Buffer.from(bytes) : Buffer.allocUnsafeSlow(CHUNK_BYTES);
};

port.on('message', (message: ToWorker) => {
  try {
    if (message.kind === 'begin') {
      // Opening reads the maps and players: the snapshot is fixed before the coordinator hears 'begun'.
      reader = openExportReader(setup.source);
      post({ kind: 'begun', maps: reader.maps.size });
    } else if (message.kind === 'end') {
      reader?.close();
      reader = undefined;
      post({ kind: 'ended' });
    } else if (message.kind === 'written') {
      credit += 1;
      if (message.bytes.byteLength === CHUNK_BYTES) free.push(message.bytes);
      wake?.();
      wake = undefined;
    } else {
      writeBlocks().catch(fail);
    }
  } catch (error) {
    fail(error);
  }
});

function fail(error: unknown): void {
  post({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
}

/** Claims blocks of maps, one after another, until none is left: the worker that is free first takes the next. */
async function writeBlocks(): Promise<void> {
  if (!reader) throw new Error('the coordinator sent go before the snapshot began');
  const writer = new CsvWriter(setup.viewer);
  const chunks = new LineChunks(allocate);
  const refs = [...reader.maps.keys()].sort((a, b) => a - b);
  const claims = new Int32Array(setup.claims);
  const seen = { maps: 0, rows: 0 };
  for (let block = claimBlock(claims, refs, seen); block; block = claimBlock(claims, refs, seen)) {
    let rows = 0;
    for (const [lines, count] of mapLines(writer, reader, reader.between({ first: block.first, last: block.last }))) {
      for (const line of lines) chunks.addBytes(line);
      rows += count;
      if (chunks.size >= CHUNK_BYTES) await handOver(block.index, chunks.take());
    }
    // A chunk never spans two blocks: the coordinator writes blocks in the file's order.
    await handOver(block.index, chunks.take());
    post({ kind: 'block', block: block.index, next: block.next, rows });
    seen.maps += block.next - block.index;
    seen.rows += rows;
  }
  reader.close();
  reader = undefined;
}

async function handOver(block: number, chunks: Buffer[]): Promise<void> {
  for (const chunk of chunks) {
    while (credit === 0) await new Promise<void>((resolve) => (wake = resolve));
    credit -= 1;
    // Every chunk owns its memory from its first byte (never Buffer's shared pool): hand it over.
    const bytes = chunk.byteOffset === 0 ? chunk.buffer as ArrayBuffer : Uint8Array.prototype.slice.call(chunk).buffer;
    post({ kind: 'chunk', block, bytes, length: chunk.byteLength }, [bytes]);
  }
}
