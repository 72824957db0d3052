// The splits reader's version, apart from the reader itself: checking what waits to be read must not load the Gbx reader.

/** Bumped when the reader learns to read files it refused: splits marked unreadable by an older one are read again. */
export const SPLITS_READER_VERSION = 1;
