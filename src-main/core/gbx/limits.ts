// What a Gbx file may claim before the reader refuses it (docs/gbx.md, "Limits"): real ghosts are 10-40 KB and
// replays a few MB with their map; these caps sit far above that and far below what would hurt the app.

export const GBX_LIMITS = {
  /** The whole file. */
  fileBytes: 32 * 1024 * 1024,
  /** The body once decompressed. */
  bodyBytes: 64 * 1024 * 1024,
  /** LZO1X cannot expand more than about 255 to 1 (a run length grows 255 per input byte). */
  lzoExpansion: 256,
  /** Header chunks (a replay has 3). */
  headerChunks: 64,
  /** Node-table size the header may declare. */
  declaredNodes: 1_000_000,
  /** Nodes actually read in one body (a replay of 256 ghosts with their record data stays far below). */
  nodes: 4096,
  /** Nodes nested in nodes. */
  depth: 16,
  /** Chunks in one node (a TM2020 ghost has about 30). */
  chunksPerNode: 1024,
  /** Ghosts in one replay. */
  ghosts: 256,
  /** Checkpoints of one ghost, all laps included. */
  checkpoints: 10_000,
  /** Laps a map may claim (a map holds at most 1,000 checkpoints, shared/splits.ts MAX_SPLITS, each lap at least one). */
  laps: 1000,
  /** A string in the body (names, logins, UIDs, file paths). */
  stringBytes: 64 * 1024,
  /** The replay's XML header. */
  xmlBytes: 256 * 1024,
} as const;
