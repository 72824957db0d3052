// The shapes that cross between main and the renderer. Inputs are bounded (the renderer is untrusted);
// outputs describe what a view needs, already in the player's words.
import { z } from 'zod';
import { rateRange, rateRangeWords } from '../shared/rate-policy.ts';
import * as rules from '../shared/leaderboard.ts';

/**
 * A schema whose output is exactly a type the shared rules declare: the shape is written here for zod, and a
 * difference either way from shared/leaderboard.ts does not compile, so the declaration stays the shared one.
 */
function declaredBy<T>() {
  return <S extends z.ZodType>(schema: S & ([z.output<S>] extends [T] ? ([T] extends [z.output<S>] ? unknown : never) : never)): S => schema;
}

// ---- building blocks -------------------------------------------------------------------------------------

/** A watchlist is named by the player; the name is its key. */
export const WatchlistName = z.string().trim().min(1, 'A list needs a name.').max(64, 'List names are at most 64 characters.');
/** Kept loose on purpose: the core says which IDs were invalid, so the player sees them by name. */
export const AccountIdInput = z.string().trim().min(1).max(100);
export const AccountId = z.string().min(1).max(100);
export const MapUid = z.string().trim().min(1).max(100);
/** A map reference as pasted: a UID, a map ID, or a trackmania.io / Trackmania Exchange link. */
export const MapRef = z.string().trim().min(1).max(500);
export const Nickname = z.string().trim().max(60);
export const IsoDate = z.string();
/** 0 none, 1 bronze, 2 silver, 3 gold, 4 author. */
export const Medal = z.number().int().min(0).max(4);
export const Theme = z.enum(['dark', 'light', 'system']);
/** Never more often than every 15 minutes: the service has no published limit and bans abusers. */
export const SYNC_EVERY_MINUTES_MIN = 15;
export const ScheduledSync = z.object({
  enabled: z.boolean(),
  everyMinutes: z.number().int().min(SYNC_EVERY_MINUTES_MIN, `A scheduled sync runs at most every ${SYNC_EVERY_MINUTES_MIN} minutes: choose ${SYNC_EVERY_MINUTES_MIN} or more.`).max(7 * 24 * 60, 'A scheduled sync runs at least once a week: choose 10080 minutes or fewer.'),
});
/** Requests per second, as the window sets them for the real services (shared/rate-policy.ts). */
const rateMessage = `The request rate must be a number of requests per second ${rateRangeWords(true)}.`;
export const MaxRps = z.number().min(rateRange(true).min, rateMessage).max(rateRange(true).max, rateMessage);

export const Empty = z.object({}).strict();

// ---- app, setup, account, settings ---------------------------------------------------------------------

export const Capabilities = z.object({
  /** Files can be revealed in the OS file manager (desktop app only). */
  showInFolder: z.boolean(),
  /** The export asks where to save; otherwise the browser downloads it. */
  saveDialog: z.boolean(),
  /** Credentials persist in the OS keychain; otherwise they live in memory until the app stops. */
  keychain: z.boolean(),
  /** Desktop notifications come from main; otherwise the page uses the browser's. */
  nativeNotifications: z.boolean(),
  /** The data folder can be changed (takes effect on restart). */
  changeDataDir: z.boolean(),
});

export const SetupState = z.enum(['none', 'demo', 'account']);

/** Whether Nadeo's service (or the demo's emulator) could be reached, as last seen. */
export const ConnectionStatus = z.object({
  /** unknown until something talked to the service. */
  state: z.enum(['online', 'offline', 'unknown']),
  message: z.string().nullable(),
  checkedAt: IsoDate.nullable(),
});

export const AppInfo = z.object({
  version: z.string(),
  shell: z.enum(['electron', 'browser']),
  platform: z.string(),
  setup: SetupState,
  dataDir: z.string(),
  capabilities: Capabilities,
  connection: ConnectionStatus,
  /** Why the data folder cannot be written, when it cannot (read-only media): everything shows, nothing changes. */
  readOnly: z.string().nullable(),
});

export const Credentials = z.object({
  login: z.string().trim().min(1, 'Enter the service account login.').max(200),
  password: z.string().min(1, 'Enter the password.').max(500),
  /** Goes into the User-Agent so Nadeo can reach whoever runs this copy. */
  contact: z
    .string()
    .trim()
    .min(3, 'Give a contact (an e-mail or a Discord name) for the User-Agent.')
    .max(200)
    // It goes into a request header: one line, no control characters.
    .refine((c) => ![...c].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f), 'The contact must be one line of text, without line breaks or control characters.'),
});

export const AccountInfo = z.object({
  configured: z.boolean(),
  login: z.string().nullable(),
  contact: z.string(),
  passwordStored: z.boolean(),
  /** Where the password is kept: the OS keychain, or memory only (browser mode, no keychain). */
  storage: z.enum(['keychain', 'memory']),
});

export const AccountSave = z.object({
  login: Credentials.shape.login,
  /** Omitted: keep the stored password. */
  password: Credentials.shape.password.optional(),
  contact: Credentials.shape.contact,
});

export const LoginTest = z.object({
  success: z.boolean(),
  /** What went right or wrong, in one sentence a player can act on. */
  message: z.string(),
  code: z.string().nullable(),
});

export const Settings = z.object({
  contact: z.string(),
  maxRps: z.number(),
  dataDir: z.string(),
  /** Set when the data folder changes on the next start. */
  dataDirNext: z.string().nullable(),
  replayFolder: z.string(),
  replayFolderDefault: z.string(),
  oauthClientId: z.string().nullable(),
  oauthSecretStored: z.boolean(),
  theme: Theme,
  scheduledSync: ScheduledSync,
  notifications: z.boolean(),
  /** A sync asks the Live services for the world positions of the PBs that changed (on by default). */
  worldPositions: z.boolean(),
  /** The player's own account ID: "delta to me" is measured against it. */
  me: AccountId.nullable(),
});

export const SettingsUpdate = z
  .object({
    contact: Credentials.shape.contact,
    maxRps: MaxRps,
    dataDir: z.string().trim().min(1).max(1000),
    /** null: back to the game's default folder for this OS. */
    replayFolder: z.string().trim().min(1).max(1000).nullable(),
    oauth: z
      .object({ clientId: z.string().trim().min(1).max(200), clientSecret: z.string().min(1).max(500).optional() })
      .nullable(),
    theme: Theme,
    scheduledSync: ScheduledSync,
    notifications: z.boolean(),
    worldPositions: z.boolean(),
    me: AccountIdInput.nullable(),
  })
  .partial()
  .strict();

// ---- watchlists, maps, players -------------------------------------------------------------------------

/** ok: everything read; partial: some maps failed (the rest is saved); failed: nothing usable; cancelled: stopped by the player. */
export const SyncOutcome = z.enum(['ok', 'partial', 'failed', 'cancelled']);

/** What went wrong, as a stable code (`offline`: the service could not be reached) and the words of the error. */
export const SyncError = z.object({ code: z.string(), message: z.string() });

/** The latest sync covering a list, whatever its outcome: what the window shows where it shows the sync's time. */
export const LastSync = z.object({
  outcome: SyncOutcome,
  finishedAt: IsoDate,
  /** Maps whose records could not be read (partial syncs). */
  failedMaps: z.number().int(),
  /** Why it failed or was partial; null for a sync that went fine or was cancelled. */
  error: SyncError.nullable(),
});

export const WatchlistSummary = z.object({
  name: z.string(),
  maps: z.number().int(),
  players: z.number().int(),
  /** When a sync last read every map of the list (it ended ok): "synced N minutes ago" is always true of it. */
  lastSyncAt: IsoDate.nullable(),
  /** How the latest sync covering the list ended. */
  lastSyncOutcome: SyncOutcome.nullable(),
  /** The latest sync covering the list (a sync of every list counts for the lists that existed when it started). */
  lastSync: LastSync.nullable(),
});

/** A map's medal scores: times (ms), Stunt points, or Platform maximum respawn counts (shared/leaderboard.ts MedalScores). */
export const MedalScores = declaredBy<rules.MedalScores>()(z.object({ author: z.number(), gold: z.number(), silver: z.number(), bronze: z.number() }));

/** How a map ranks (shared/leaderboard.ts mapKind): race and clones by time, stunt by points, platform by respawns. */
export const MapKind = z.enum(rules.MAP_KINDS);
/** A record's result as the leaderboard module reads it (shared/leaderboard.ts RecordResult). */
export const RecordResult = declaredBy<rules.RecordResult>()(z.object({
  hidden: z.boolean(),
  time: z.number().nullable(),
  score: z.number().nullable(),
  respawnCount: z.number().nullable(),
}));

/**
 * value − reference (shared/leaderboard.ts Delta): `value` in `unit` (ms: + is slower; points: + is more; respawns:
 * + is more), `time` the time difference beside a respawn delta, else null.
 */
export const Delta = declaredBy<rules.Delta>()(z.object({ unit: z.enum(rules.UNITS), value: z.number(), time: z.number().nullable() }));

/** The medal held, the next one (null at author) and the gap to it as value − its score (shared/leaderboard.ts MedalProgressLike). */
export const MedalProgress = declaredBy<rules.MedalProgressLike>()(
  z.object({ medal: Medal, next: z.number().int().min(1).max(4).nullable(), gap: Delta.nullable() }),
);

export const MapSummary = z.object({
  mapUid: z.string(),
  mapId: z.string(),
  /** Raw, with its formatting codes: the renderer shows it as styled text, never as HTML. */
  name: z.string(),
  authorId: z.string(),
  authorName: z.string().nullable(),
  mapType: z.string(),
  kind: MapKind,
  /** kind === 'stunt': points, higher first. */
  isStunt: z.boolean(),
  medals: MedalScores,
});

export const PlayerSummary = z.object({
  accountId: z.string(),
  nickname: z.string().nullable(),
  /** From the OAuth display-names API when configured; cached. */
  displayName: z.string().nullable(),
  isMe: z.boolean(),
});

export const WatchlistDetail = z.object({
  summary: WatchlistSummary,
  /** Each with when a sync last read its records (null: not yet). */
  maps: z.array(MapSummary.extend({ lastCheckedAt: IsoDate.nullable() })),
  players: z.array(PlayerSummary),
});

export const AddMaps = z.object({ list: WatchlistName, refs: z.array(MapRef).min(1).max(5000) });
export const AddMapsResult = z.object({
  added: z.array(z.string()),
  alreadyListed: z.array(z.string()),
  /** Added without a look-up (the service could not be reached): the next sync checks them. */
  pending: z.array(z.string()),
  notFound: z.array(z.string()),
  /** Text that names no map, with the reason. */
  invalid: z.array(z.object({ input: z.string(), reason: z.string() })),
});
export const AddPlayers = z.object({
  list: WatchlistName,
  players: z.array(z.object({ accountId: AccountIdInput, nickname: Nickname.optional() })).min(1).max(1000),
});
export const AddPlayersResult = z.object({
  added: z.array(z.string()),
  alreadyListed: z.array(z.string()),
  invalid: z.array(z.object({ accountId: z.string(), reason: z.string() })),
  /** Players who already had another nickname: it was kept, the one given was not applied. */
  nicknamesKept: z.array(z.object({ accountId: z.string(), kept: z.string(), given: z.string() })),
});

/**
 * A list made from a source: `campaign:current`, `campaign:<name>`, `totd:YYYY-MM`, `club:<club>/<campaign>`,
 * `tmx-pack:<id>`, or a trackmania.io club campaign or Trackmania Exchange pack link (core/nadeo/sources/sources.ts).
 */
export const CreateListFromSource = z.object({
  source: z.string().trim().min(1, 'Say where the list comes from.').max(300, 'A list source is at most 300 characters.'),
  /** Named after the source when left out ("Fall 2026"). */
  name: WatchlistName.optional(),
});
export const ListFromSourceResult = z.object({
  list: WatchlistSummary,
  /** What the list is, in the player's words: "Fall 2026", "Track of the Day 2026-11". */
  title: z.string(),
  source: z.string(),
  /** The source pinned down ("campaign:current" is "campaign:Fall 2026"): what later syncs read for new maps. */
  pinned: z.string(),
  added: z.number().int(),
  /** Maps the map lookup does not know yet: a later sync tries them again. */
  notFound: z.number().int(),
  notes: z.array(z.string()),
});
/** Players by display name (the Trackmania OAuth API, the app set in Settings). */
export const FindPlayers = z.object({
  names: z.array(z.string().trim().min(1, 'A display name cannot be empty.').max(64, 'Display names are at most 64 characters.')).min(1).max(50),
});
export const FoundPlayers = z.object({
  found: z.array(z.object({ name: z.string(), accountId: z.string() })),
  /** Names no account has. */
  unknown: z.array(z.string()),
  /** Names the service gave several accounts for (differing in letter case). */
  ambiguous: z.array(z.object({ name: z.string(), accountIds: z.array(z.string()) })),
  invalid: z.array(z.object({ name: z.string(), reason: z.string() })),
});

/** The seasonal campaigns the service lists, newest first. */
export const SeasonalCampaigns = z.object({ names: z.array(z.string()) });

/**
 * A watched record's world position (Live services), when one was asked for its current score. ranked: `position`
 * and the zones' positions; limitedByOwnRecord: the account Trackwatch logs in with holds a worse record on the map,
 * and the service gives no position better than its own; unavailable: the map is not on its leaderboards.
 */
export const WorldPosition = z.object({
  state: z.enum(['ranked', 'limitedByOwnRecord', 'unavailable']),
  position: z.number().int().nullable(),
  /**
   * Positions in zones beyond the world (region, country...), in the service's order: the zones of the account that
   * asked (the one Trackwatch logs in with), not the player's (docs/nadeo-api.md, Live's surround.md): shown as yours.
   */
  zones: z.array(z.object({ zoneName: z.string(), position: z.number().int() })),
  /** The last ranked world position before this one. */
  previous: z.number().int().nullable(),
  /** When it was asked: the service's positions can lag hours behind. */
  asOf: IsoDate,
});

export const ReplayState = z.enum(['downloaded', 'available', 'hidden', 'none']);
/** A player's replay on a map: the one the player picked (recordId, e.g. an older archived one), else the current PB's. */
export const ReplayRef = z.object({ mapUid: MapUid, accountId: AccountIdInput, recordId: z.string().trim().min(1).max(100).optional() });

/** Which replays a list's syncs download: all watched players', "me" and the best N per map, or none (on demand). */
/** A list's world-record setting: what the player set (null: the default, on up to 100 maps) and whether syncs ask. */
export const WorldRecordSetting = z.object({ set: z.boolean().nullable(), on: z.boolean() });

export const ReplayPolicy = z.object({ mode: z.enum(['all', 'best', 'none']), best: z.number().int().min(1).max(100) });
export const FetchedReplay = z.object({
  /** refused: the service answered 403 (a later sync asks again). */
  state: z.enum(['downloaded', 'refused']),
  file: z.string().nullable(),
  bytes: z.number().nullable(),
});

/** The ranks an entry may hold on the board (shared/leaderboard.ts RankRange). */
export const RankRange = z.object({ min: z.number().int().min(1), max: z.number().int().min(1) });

export const RankedEntry = z.object({
  player: PlayerSummary,
  /** The name shown (shared/leaderboard.ts playerLabel), raw with any formatting codes. */
  name: z.string(),
  hasRecord: z.boolean(),
  /** A secret entry (behind the author's Top Secret threshold): no time, score or replay; placed by what is known. */
  hidden: z.boolean(),
  /** Among the watched players, secret entries counted, when known exactly; null when only a range is, or unranked. */
  rank: z.number().int().nullable(),
  /** The ranks it may hold ("2–4" where secret entries blur the order); min = max = rank when exact. */
  rankRange: RankRange.nullable(),
  /** Among the visible entries alone; null unless ranked. */
  visibleRank: z.number().int().nullable(),
  /** Milliseconds; null when hidden or absent. */
  time: z.number().nullable(),
  /** Stunt points; null on other maps and when hidden. */
  score: z.number().nullable(),
  /** Platform's measure; null when not tracked or hidden. */
  respawnCount: z.number().nullable(),
  medal: Medal,
  setAt: IsoDate.nullable(),
  /** Surely the best on the board: no entry, secret or visible, can be ahead of it (ties share it). */
  isBest: z.boolean(),
  /** Holds the best visible result; a secret entry may still be ahead of it. */
  isBestVisible: z.boolean(),
  /** value − the best on the board; null unless that best is known (MapDetail.bestIsKnown). */
  deltaToBest: Delta.nullable(),
  /** value − the best visible entry's. */
  deltaToBestVisible: Delta.nullable(),
  /** value − mine; null on my own entry. */
  deltaToMe: Delta.nullable(),
  progress: MedalProgress.nullable(),
  replay: z.object({ state: ReplayState, file: z.string().nullable(), bytes: z.number().nullable() }),
  /** Null (or absent) until a sync asked for this record's position. */
  position: WorldPosition.nullable().optional(),
});

export const MapDetail = z.object({
  list: z.string(),
  map: MapSummary,
  /** In leaderboard order: secret entries, ranked ones, then players without a record. */
  entries: z.array(RankedEntry),
  /** Secret entries among them. */
  secret: z.number().int(),
  /** Whether the best visible entry is surely the best on the board (no secret entry can be ahead of it). */
  bestIsKnown: z.boolean(),
  lastSyncAt: IsoDate.nullable(),
  /** When a sync last read this map's records; null: not yet. */
  lastCheckedAt: IsoDate.nullable(),
  replayFolder: z.string(),
});

export const Thumbnail = z.object({ dataUrl: z.string().nullable() });

/**
 * One player's PB on one map of the grid; null in `cells` without a record. Sparse, as a grid holds thousands of
 * maps: a field left out is null (false for the flags). A secret entry holds `hidden` and `medal` only. Deltas are
 * worked out by the reader from the ranked cells (shared/leaderboard.ts deltaOf): the best one is marked.
 */
export const CompareCell = z.object({
  hidden: z.literal(true).optional(),
  time: z.number().optional(),
  /** Stunt points. */
  score: z.number().optional(),
  respawnCount: z.number().optional(),
  medal: Medal,
  /** The rank on the board, secret entries counted, when known exactly. */
  rank: z.number().int().optional(),
  /** The ranks it may hold, when not known exactly (then `rank` is left out). */
  rankRange: RankRange.optional(),
  /** Surely the best on the board (ties share it). */
  isBest: z.literal(true).optional(),
  /** Holds the best visible result; a secret entry may still be ahead of it. */
  isBestVisible: z.literal(true).optional(),
  /** value − the best on the board, where the row's best is known (ranked cells). */
  deltaToBest: Delta.optional(),
  /** value − the best visible result, where the row's best is not known (else it is deltaToBest: one is sent). */
  deltaToBestVisible: Delta.optional(),
  /** value − mine (ranked cells other than mine, when mine is ranked). */
  deltaToMe: Delta.optional(),
  /** value − the map's world record (visible cells, when the WR is known and not secret). */
  deltaToWorldRecord: Delta.optional(),
});

/** A map's world record (Live top route, when the list asks for it): who, and the result unless secret. */
export const WorldRecord = z.object({
  accountId: z.string(),
  name: z.string(),
  /** A secret threshold hides it: the holder is known, the result is not. */
  secret: z.boolean(),
  time: z.number().nullable(),
  /** Stunt points. */
  score: z.number().nullable(),
  setAt: IsoDate.nullable(),
  /** When the service was asked. */
  readAt: IsoDate,
  /** The holder's record, when a sync read it (its replay is the WR's ghost). */
  mapRecordId: z.string().nullable(),
});

export const CompareRow = z.object({
  mapUid: z.string(),
  name: z.string(),
  /** As the service names it (`TrackMania\\TM_Royal`); `kind` is how it ranks. */
  mapType: z.string(),
  kind: MapKind,
  medals: MedalScores,
  /** Secret entries on this map among the players. */
  secret: z.number().int(),
  /** Whether the best visible result is surely the best on the board. */
  bestIsKnown: z.boolean(),
  /** One per player column, in `players` order. */
  cells: z.array(CompareCell.nullable()),
  /** The map's world record, when the list asks for it and a sync read it. */
  worldRecord: WorldRecord.optional(),
});

export const CompareTable = z.object({
  list: z.string(),
  players: z.array(PlayerSummary),
  rows: z.array(CompareRow),
  /** Column of the player marked as me, or null. */
  me: z.number().int().nullable(),
  /** Maps in the list; more than rows.length when only the first rows were asked for. */
  total: z.number().int(),
  complete: z.boolean(),
});

export const CompareQuery = z.object({
  list: WatchlistName,
  /** Only the list's first rows, in list order: enough to paint the view at once, whatever the list's size. */
  first: z.number().int().min(1).max(500).optional(),
});

export const PlayerPb = z.object({
  mapUid: z.string(),
  mapName: z.string(),
  kind: MapKind,
  medals: MedalScores,
  hasRecord: z.boolean(),
  hidden: z.boolean(),
  time: z.number().nullable(),
  score: z.number().nullable(),
  respawnCount: z.number().nullable(),
  medal: Medal,
  setAt: IsoDate.nullable(),
  /** Among the list's players, secret entries counted, when known exactly. */
  rank: z.number().int().nullable(),
  /** The ranks it may hold; min = max = rank when exact. */
  rankRange: RankRange.nullable(),
  /** Surely the best on the board. */
  isBest: z.boolean(),
  /** Holds the best visible result. */
  isBestVisible: z.boolean(),
  /** value − the best on the board; null unless it is known (bestIsKnown). */
  deltaToBest: Delta.nullable(),
  /** value − the best visible result. */
  deltaToBestVisible: Delta.nullable(),
  /** Secret entries on this map. */
  secret: z.number().int(),
  bestIsKnown: z.boolean(),
  progress: MedalProgress.nullable(),
  /** Null (or absent) until a sync asked for this PB's position. */
  position: WorldPosition.nullable().optional(),
});

export const Improvement = z.object({
  mapUid: z.string(),
  mapName: z.string(),
  kind: MapKind,
  /** kind === 'stunt'. */
  isStunt: z.boolean(),
  /** The new record is behind a secret threshold: its time is unknown. */
  hidden: z.boolean(),
  /** ms, or points on Stunt; null when hidden. */
  value: z.number().nullable(),
  previous: z.number().nullable(),
  /** The record before was secret (its result was never known): "was SECRET", never an empty time. */
  previousHidden: z.boolean(),
  /** Platform's measure, now and before (null when not known). */
  respawnCount: z.number().nullable(),
  previousRespawnCount: z.number().nullable(),
  medal: Medal,
  setAt: IsoDate.nullable(),
  /** When our sync saw it: Nadeo keeps no history, so this is all we know. */
  seenAt: IsoDate,
  /** The first sighting of a record, not an improvement. */
  first: z.boolean(),
});

export const PlayerDetail = z.object({
  list: z.string(),
  player: PlayerSummary,
  pbs: z.array(PlayerPb),
  history: z.array(Improvement),
});

export const ReplayInfo = z.object({
  /** The record this replay is of: copy and show act on exactly this one. */
  recordId: z.string().optional(),
  mapUid: z.string(),
  mapName: z.string(),
  accountId: z.string(),
  /** The player's nickname, else display name (with its formatting codes), else the account ID's start. */
  playerName: z.string(),
  file: z.string(),
  bytes: z.number(),
  downloadedAt: IsoDate.nullable(),
  kind: MapKind,
  /** The record's result when this replay is of the current, visible PB; null for an older one. */
  result: RecordResult.nullable(),
});

export const ReplayList = z.object({
  folder: z.string(),
  totalBytes: z.number(),
  replays: z.array(ReplayInfo),
  /** Replays whose download failed so often that syncs stopped asking for them (replays.retryFailed). */
  givenUp: z.number().int(),
});

// ---- sync, status, export ------------------------------------------------------------------------------

export const SyncProgress = z.object({
  runId: z.string(),
  list: z.string().nullable(),
  /** What the sync is doing, in words: "Reading maps", "Reading records", "Downloading replays". */
  phase: z.string(),
  done: z.number().int(),
  total: z.number().int(),
  newRecords: z.number().int(),
  startedAt: IsoDate,
  /** Estimated time left; null until it can be told. */
  etaMs: z.number().nullable(),
});

export const SyncFinished = z.object({
  runId: z.string(),
  list: z.string().nullable(),
  outcome: SyncOutcome,
  maps: z.number().int(),
  newRecords: z.number().int(),
  replays: z.number().int(),
  durationMs: z.number(),
  finishedAt: IsoDate,
  /** Maps whose records could not be read (partial syncs). */
  failedMaps: z.number().int(),
  error: SyncError.nullable(),
});

export const SyncStatus = z.object({
  running: SyncProgress.nullable(),
  last: SyncFinished.nullable(),
  nextScheduledAt: IsoDate.nullable(),
});

export const SyncStart = z.object({ list: WatchlistName.optional(), replays: z.boolean().optional() }).strict();

/** What a sync will ask of Nadeo's service, said before it starts; a large first sync asks for a confirmation. */
export const SyncPlan = z.object({
  recordRequests: z.number().int(),
  mapLookups: z.number().int(),
  replayDownloads: z.number().int(),
  /** Live requests for the world positions of changed PBs, asked after the records (0 when none are due). */
  positionRequests: z.number().int(),
  /** Live top-route requests for world records: one per map of the lists that show them. */
  worldRecordRequests: z.number().int(),
  /** Every request, Core's and Live's. */
  requests: z.number().int(),
  /** The part of `seconds` the position requests take. */
  positionSeconds: z.number(),
  seconds: z.number(),
  firstSync: z.boolean(),
  large: z.boolean(),
  /** "about 26 record requests, 1,250 replay downloads and 50 position requests, about 22 min at 1 request/s" */
  line: z.string(),
});

export const NewPersonalBest = z.object({
  list: z.string().nullable(),
  mapUid: z.string(),
  mapName: z.string(),
  accountId: z.string(),
  /** Plain text: the nickname, else the display name without its formatting codes, else the account ID's start. */
  playerName: z.string(),
  /** How the map ranks: the results read in its unit (shared/leaderboard.ts formatImprovement). */
  kind: MapKind,
  result: RecordResult,
  /** The PB it beat; null when there was none (a record that came out from behind a secret threshold). */
  previous: RecordResult.nullable(),
  setAt: IsoDate.nullable(),
});

export const ExportCsv = z.object({ list: WatchlistName.optional(), bom: z.boolean().optional() }).strict();
export const ExportResult = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('saved'), file: z.string(), rows: z.number().int() }),
  z.object({ kind: z.literal('cancelled') }),
  /** Browser mode: the page offers the file as a download. */
  z.object({ kind: z.literal('download'), fileName: z.string(), content: z.string(), rows: z.number().int() }),
]);

// ---- splits (checkpoint times read from the archived ghosts; shared/splits.ts holds the rules) -------------

/** A map as `splits` takes it: a UID, a map ID or a link; `list` narrows the players, `vs` names the rival compared against. */
export const SplitsQuery = z.object({
  map: MapRef,
  /** Without it: the watched players of every list holding the map. */
  list: WatchlistName.optional(),
  /** An account ID or a watched player's name: "delta to vs" and "you lose most" measure against them instead of the best. */
  vs: z.string().trim().min(1).max(100).optional(),
}).strict();

/** Why a watched player has no splits to show. */
export const SplitsMissingReason = z.enum(['noRecord', 'hidden', 'noReplay', 'unread', 'unreadable']);

/** One run's splits: cumulative ms at each checkpoint (the last is the finish), null where the ghost stores -1. */
export const SplitsRun = z.object({
  accountId: z.string(),
  /** Plain text: nickname, else display name without formatting codes, else the account ID's start. */
  name: z.string(),
  recordId: z.string(),
  /** The record's time, ms. */
  time: z.number().nullable(),
  isMe: z.boolean(),
  checkpoints: z.array(z.number().nullable()),
  /** Time between a checkpoint and the one before (the start for the first); null where either end is missing. */
  sectors: z.array(z.number().nullable()),
  /** Cumulative − the best watched cumulative at that checkpoint; null where not comparable. */
  deltaToBest: z.array(z.number().nullable()),
  /** Cumulative − mine at that checkpoint; null on my own run, without me, or where not comparable. */
  deltaToMe: z.array(z.number().nullable()),
  /** Cumulative − the `vs` player's at that checkpoint; absent without `vs`. */
  deltaToVs: z.array(z.number().nullable()).optional(),
  /** Each lap's time (a lap race whose laps are known, the run comparable); absent otherwise. */
  lapTimes: z.array(z.number().nullable()).optional(),
  /** Cumulative − the world record's at that checkpoint; absent without a comparable WR run (SplitsView.worldRecord). */
  deltaToWorldRecord: z.array(z.number().nullable()).optional(),
  /** Platform: the run's respawns; null elsewhere or when the ghost does not say. */
  respawns: z.number().nullable(),
  /** Stunt: the score at each checkpoint (empty elsewhere). */
  stuntScores: z.array(z.number().nullable()),
  /** Has the view's checkpoint count: its deltas are meaningful. */
  comparable: z.boolean(),
  /** Why not comparable, in one line ("a ghost of 7 checkpoints, the map has 9 now: an older version of the map?"). */
  note: z.string().nullable(),
  setAt: IsoDate.nullable(),
});

/** Where a player loses most: the checkpoint ending the sector (1-based, the finish is `checkpoints`) and the ms lost. */
export const LoseMostAt = z.object({ checkpoint: z.number().int().min(1), ms: z.number() });

/** Why the world record is no splits reference: secret, or its ghost is not at hand (SplitsMissingReason). */
export const SplitsWorldRecordMissing = z.enum(['secret', 'noRecord', 'hidden', 'noReplay', 'unread', 'unreadable']);

/**
 * The map's world record beside the watched runs (issue 15 part 4): who and what, as the compare view has it, and its
 * ghost's run compared with the watched ones (never counted in their best, ideal run or "lose most").
 */
export const SplitsWorldRecord = WorldRecord.extend({
  /** The WR ghost's splits: deltaToBest is WR − the best watched split, deltaToMe WR − mine; null when `missing`. */
  run: SplitsRun.nullable(),
  /** Why there is no run, with one line saying so for the window and the command line; null with a run. */
  missing: z.object({ reason: SplitsWorldRecordMissing, note: z.string() }).nullable(),
});

/** The map page's "Splits", `splits.forMap`, and `trackwatch splits --json`: one shape. */
export const SplitsView = z.object({
  map: MapSummary,
  list: z.string().nullable(),
  /** Checkpoints of the map as most ghosts have them, the finish included (0 when no ghost was read). */
  checkpoints: z.number().int(),
  /** Lap boundaries: the checkpoint indices (1-based) that end a lap; null when the lap count is not known or 1. */
  laps: z.object({ count: z.number().int(), ends: z.array(z.number().int()) }).nullable(),
  players: z.array(SplitsRun),
  /** The best sectors among the comparable watched runs, summed; `owners` holds who set each (account IDs). */
  ideal: z.object({
    time: z.number().nullable(),
    sectors: z.array(z.number().nullable()),
    owners: z.array(z.string().nullable()),
    /** My time − the ideal time: what I would gain; null without my comparable run. */
    gain: z.number().nullable(),
  }),
  /** My worst sector against the best sectors (or against `vs`); null without my comparable run. */
  loseMostAt: LoseMostAt.nullable(),
  /** The account compared against when `vs` was given. */
  vs: z.string().nullable(),
  /** Watched players without splits, and why. */
  missing: z.array(z.object({ accountId: z.string(), name: z.string(), reason: SplitsMissingReason, detail: z.string().nullable() })),
  /** The map's world record when a sync read it (the list's "world record" setting); null otherwise. */
  worldRecord: SplitsWorldRecord.nullable(),
});

export const SplitsListQuery = z.object({ list: WatchlistName }).strict();
/** Per map of a list: where I lose most and what the ideal run would gain me; sortable by the window. */
export const SplitsListRow = z.object({
  mapUid: z.string(),
  mapName: z.string(),
  loseMostAt: LoseMostAt.nullable(),
  possibleGain: z.number().nullable(),
  myTime: z.number().nullable(),
  idealTime: z.number().nullable(),
  /** Watched runs with comparable splits on the map. */
  runs: z.number().int(),
});
export const SplitsList = z.object({
  list: z.string(),
  maps: z.array(SplitsListRow),
  /** Summed over the maps where I and the ideal run both have a time ("ideal list time"). */
  totals: z.object({ maps: z.number().int(), myTime: z.number().nullable(), idealTime: z.number().nullable(), possibleGain: z.number().nullable() }),
});

export const SplitsHistoryQuery = z.object({ player: AccountIdInput, map: MapRef }).strict();
/** A player's PB improvements on a map, oldest first, each with its splits and the sectors it gained over the one before. */
export const SplitsHistory = z.object({
  map: MapSummary,
  accountId: z.string(),
  name: z.string(),
  improvements: z.array(z.object({
    recordId: z.string(),
    time: z.number().nullable(),
    setAt: IsoDate.nullable(),
    seenAt: IsoDate,
    /** Null when the record's ghost has no splits (see `missing`). */
    checkpoints: z.array(z.number().nullable()).nullable(),
    sectors: z.array(z.number().nullable()).nullable(),
    /** Sector − the previous improvement's same sector (negative: time found); null for the first or not comparable. */
    sectorGains: z.array(z.number().nullable()).nullable(),
    respawns: z.number().nullable(),
    missing: SplitsMissingReason.nullable(),
  })),
});

/** The first-start reading of replays archived before splits existed: runs in slices, resumable. */
export const SplitsBackfillProgress = z.object({
  done: z.number().int(),
  total: z.number().int(),
  read: z.number().int(),
  unreadable: z.number().int(),
  finished: z.boolean(),
});
