// The blocks of maps the worker threads of a split export (csv-parallel.ts, csv-worker.ts) claim one after another:
// whichever worker is free takes the next, so the load balances without counting the rows first. Plain code over a
// shared counter: no file, store or thread of its own.

/** A block aims at about this many rows (about 1 MB of CSV, four chunks): a worker's window (csv-parallel.ts WINDOW) holds several. */
export const BLOCK_ROWS = 4000;
/** A block holds at most this share of the maps, so a small export still alternates between the workers. */
export const MIN_BLOCKS = 64;

/**
 * A block: `index` (its first map's index among the snapshot's maps in ref order, which names it) up to `next` (where
 * the following block starts), and the map refs it covers, first to last: the first block starts below every ref and
 * the last runs past every ref, so the blocks cover every row whatever its map ref.
 */
export interface Block {
  readonly index: number;
  readonly next: number;
  readonly first: number;
  readonly last: number;
}

/** What a worker has written so far: its blocks' maps and rows, from which it sizes the next block it claims. */
export interface Seen {
  maps: number;
  rows: number;
}

/**
 * Claims the next block from `claims[0]` (the next unclaimed map's index, shared by the workers; Atomics make each
 * claim whole), or undefined when every map is claimed. `refs`: the snapshot's map refs, ascending. The first claim
 * takes one map; then as many maps as held about BLOCK_ROWS rows so far, at least one, at most refs/MIN_BLOCKS.
 */
export function claimBlock(claims: Int32Array, refs: readonly number[], seen: Seen): Block | undefined {
  const most = Math.max(1, Math.ceil(refs.length / MIN_BLOCKS));
  const size = seen.maps === 0 ? 1 : seen.rows === 0 ? most : Math.min(most, Math.max(1, Math.round((BLOCK_ROWS * seen.maps) / seen.rows)));
  const index = Atomics.add(claims, 0, size);
  if (index >= refs.length) return undefined;
  const next = Math.min(index + size, refs.length);
  return {
    index,
    next,
    first: index === 0 ? Number.MIN_SAFE_INTEGER : refs[index]!,
    last: next === refs.length ? Number.MAX_SAFE_INTEGER : refs[next]! - 1,
  };
}
