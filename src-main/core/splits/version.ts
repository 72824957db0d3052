// The splits reader's version, apart from the reader itself: checking what waits to be read must not load the Gbx reader.

/**
 * Bumped when the reader learns to read more of a file: what an older one read is read again, once, by the backfill
 * (core/store/splits.ts NEEDS_READ), and what it could not read too. 2: the laps of the map a replay embeds.
 */
export const SPLITS_READER_VERSION = 2;
