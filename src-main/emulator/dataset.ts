// The emulator's data: the seed's map and record objects (2.1, 2.2) plus what only an emulator needs to know.
import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import {
  campaignsSchema,
  clubCampaignsSchema,
  exchangePacksSchema,
  liveFieldIssues,
  trackOfTheDaySchema,
  type DatasetCampaign,
  type DatasetClubCampaign,
  type DatasetExchangePack,
  type DatasetTotdMonth,
} from './live-dataset.ts';
import { SENTINEL_U32 } from './rules.ts';

/** A map as the seed's 2.1 object, plus the secret threshold; the emulator fills in the URLs it serves. */
export interface DatasetMap {
  author: string;
  authorScore: number;
  bronzeScore: number;
  silverScore: number;
  goldScore: number;
  collectionName: string;
  createdWithGamepadEditor: boolean;
  createdWithSimpleEditor: boolean;
  filename: string;
  hasClones: boolean;
  isPlayable: boolean;
  mapId: string;
  mapUid: string;
  mapStyle: string;
  mapType: string;
  name: string;
  submitter: string;
  timestamp: string;
  /** Absolute, served as is; or relative ('/storageObjects/<id>'), expanded to the emulator's origin. Omitted: assigned. */
  fileUrl?: string;
  /** Like fileUrl, ending in .jpg. */
  thumbnailUrl?: string;
  /** Top Secret: records strictly faster than this time (ms), on every kind of map, are served hidden to all but their own player (map-page.md). */
  secretThreshold?: number;
  /** Players nobody here watches on the map's Personal_Best leaderboard, besides the records (world.ts: the crowd). */
  population?: number;
  /** The map's Trackmania Exchange number. */
  exchangeId?: number;
}

export interface DatasetRecordScore {
  /** The TRUE time; the server replaces it with 4294967295 when a secret threshold hides the record. */
  time: number;
  score: number;
  /** 4294967295 when not tracked. */
  respawnCount: number;
}

/** A record as the seed's 2.2 object, plus the replay's bytes if the dataset wants specific ones. */
export interface DatasetRecord {
  accountId: string;
  mapId: string;
  mapRecordId: string;
  filename: string;
  gameMode: string;
  gameModeCustomData: string;
  medal: number;
  recordScore: DatasetRecordScore;
  removed: boolean;
  scopeId: string | null;
  scopeType: string;
  timestamp: string;
  /** Like DatasetMap.fileUrl. Omitted: the emulator assigns one of its two replay URL forms. */
  url?: string;
  /** The replay file; omitted: deterministic bytes (see replayBytesFor). */
  replayBase64?: string;
}

export interface Dataset {
  maps: DatasetMap[];
  records: DatasetRecord[];
  /** accountId -> display name, served by the OAuth display-names route: plain, as the OAuth API gives them. */
  displayNames?: Record<string, string>;
  /** accountId -> club tag, with its formatting codes, served by Core's club-tags route (docs/nadeo-api.md "Player names"). */
  clubTags?: Record<string, string>;
  /** Live services and Exchange (see live-dataset.ts): all made of the dataset's maps. */
  campaigns?: DatasetCampaign[];
  trackOfTheDay?: DatasetTotdMonth[];
  clubCampaigns?: DatasetClubCampaign[];
  exchangePacks?: DatasetExchangePack[];
}

/** A dataset that does not follow the schema; `issues` name each bad field, e.g. `records[3].mapId: ...`. */
export class DatasetError extends Error {
  readonly issues: string[];
  constructor(issues: string[], source?: string) {
    const shown = issues.slice(0, 8).join('; ');
    const more = issues.length > 8 ? ` (and ${issues.length - 8} more)` : '';
    super(`invalid dataset${source ? ` ${source}` : ''}: ${shown}${more}`);
    this.name = 'DatasetError';
    this.issues = issues;
  }
}

export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/;

const uuid = z.string().regex(UUID_PATTERN, { error: 'must be a UUID (8-4-4-4-12 hex digits)' });
const u32 = z.number().int({ error: 'must be an integer' }).min(0).max(SENTINEL_U32);
const timestamp = z
  .string()
  .regex(TIMESTAMP_PATTERN, { error: 'must be ISO 8601 with a numeric offset, like 2026-05-01T12:00:00+00:00' })
  .refine((text) => !Number.isNaN(Date.parse(text)), { error: 'is not a real date' });
const servedUrl = z
  .string()
  .regex(/^(\/|https?:\/\/)/, { error: 'must be absolute (http/https) or start with / (served from the emulator)' });

const mapSchema = z.strictObject({
  author: uuid,
  authorScore: u32,
  bronzeScore: u32,
  silverScore: u32,
  goldScore: u32,
  collectionName: z.string(),
  createdWithGamepadEditor: z.boolean(),
  createdWithSimpleEditor: z.boolean(),
  filename: z.string().min(1),
  hasClones: z.boolean(),
  isPlayable: z.boolean(),
  mapId: uuid,
  mapUid: z.string().regex(/^[^\s,]+$/, { error: 'must be a non-empty UID without spaces or commas' }),
  mapStyle: z.string(),
  mapType: z.string().regex(/^[^\\]+\\TM_\w+$/, {
    error: 'must look like TrackMania\\TM_Race (one backslash; in JSON write "TrackMania\\\\TM_Race")',
  }),
  name: z.string(),
  submitter: uuid,
  timestamp,
  fileUrl: servedUrl.optional(),
  thumbnailUrl: servedUrl.optional(),
  secretThreshold: u32.optional(),
  population: z.number().int().min(1).optional(),
  exchangeId: z.number().int().min(1).max(2 ** 31 - 1).optional(),
});

const recordSchema = z
  .strictObject({
    accountId: uuid,
    mapId: uuid,
    mapRecordId: uuid,
    filename: z.string(),
    gameMode: z.string().min(1),
    gameModeCustomData: z.string(),
    medal: z.number().int().min(0).max(4),
    recordScore: z.strictObject({ time: u32, score: u32, respawnCount: u32 }),
    removed: z.boolean(),
    scopeId: z.string().min(1).nullable(),
    scopeType: z.enum(['PersonalBest', 'Season']),
    timestamp,
    url: servedUrl.optional(),
    replayBase64: z.base64({ error: 'must be base64' }).optional(),
  })
  .superRefine((record, ctx) => {
    if (record.scopeType === 'PersonalBest' && record.scopeId !== null)
      ctx.addIssue({ code: 'custom', path: ['scopeId'], message: 'must be null when scopeType is PersonalBest' });
    if (record.scopeType === 'Season' && record.scopeId === null)
      ctx.addIssue({ code: 'custom', path: ['scopeId'], message: 'must be the season ID when scopeType is Season' });
  });

const datasetSchema = z
  .strictObject({
    maps: z.array(mapSchema),
    records: z.array(recordSchema),
    displayNames: z.record(uuid, z.string()).optional(),
    clubTags: z.record(uuid, z.string()).optional(),
    campaigns: campaignsSchema.optional(),
    trackOfTheDay: trackOfTheDaySchema.optional(),
    clubCampaigns: clubCampaignsSchema.optional(),
    exchangePacks: exchangePacksSchema.optional(),
  })
  .superRefine((dataset, ctx) => {
    for (const issue of liveFieldIssues(dataset)) ctx.addIssue({ code: 'custom', ...issue });
    const mapIds = new Map<string, number>();
    const mapUids = new Map<string, number>();
    dataset.maps.forEach((map, i) => {
      const id = map.mapId.toLowerCase();
      const before = mapIds.get(id);
      if (before !== undefined) ctx.addIssue({ code: 'custom', path: ['maps', i, 'mapId'], message: `repeats maps[${before}].mapId` });
      else mapIds.set(id, i);
      const uidBefore = mapUids.get(map.mapUid);
      if (uidBefore !== undefined) ctx.addIssue({ code: 'custom', path: ['maps', i, 'mapUid'], message: `repeats maps[${uidBefore}].mapUid` });
      else mapUids.set(map.mapUid, i);
    });
    const recordIds = new Map<string, number>();
    const slots = new Map<string, number>();
    dataset.records.forEach((record, i) => {
      if (!mapIds.has(record.mapId.toLowerCase()))
        ctx.addIssue({ code: 'custom', path: ['records', i, 'mapId'], message: 'names no map of the dataset' });
      const id = record.mapRecordId.toLowerCase();
      const before = recordIds.get(id);
      if (before !== undefined)
        ctx.addIssue({ code: 'custom', path: ['records', i, 'mapRecordId'], message: `repeats records[${before}].mapRecordId` });
      else recordIds.set(id, i);
      const slot = leaderboardSlot(record);
      const slotBefore = slots.get(slot);
      if (slotBefore !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['records', i],
          message: `a second record of this account on the same map, scope and gameMode as records[${slotBefore}]`,
        });
      else slots.set(slot, i);
    });
  });

/** The one leaderboard place a record occupies: an account has at most one record per map, scope and game mode. */
export function leaderboardSlot(record: Pick<DatasetRecord, 'mapId' | 'accountId' | 'scopeId' | 'gameMode'>): string {
  return `${record.mapId.toLowerCase()}|${record.scopeId ?? ''}|${record.gameMode}|${record.accountId.toLowerCase()}`;
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) out += typeof part === 'number' ? `[${part}]` : `${out ? '.' : ''}${String(part)}`;
  return out || '(top level)';
}

/** Checks a parsed JSON value against the dataset schema; throws DatasetError naming every bad field. */
export function parseDataset(json: unknown, source?: string): Dataset {
  const result = datasetSchema.safeParse(json);
  if (result.success) return result.data;
  throw new DatasetError(
    result.error.issues.map((issue) => `${formatPath(issue.path)}: ${issue.message.replace(/^Invalid input: expected (\w+), received undefined$/, 'missing (expected $1)')}`),
    source,
  );
}

/** Reads and checks a dataset file. */
export async function loadDataset(file: string): Promise<Dataset> {
  const text = await readFile(file, 'utf8');
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new DatasetError([`not JSON (${error instanceof Error ? error.message : String(error)})`], file);
  }
  return parseDataset(json, file);
}
