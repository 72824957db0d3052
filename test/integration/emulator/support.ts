// Shared by the emulator's integration tests: a raw HTTP client and finders over generated datasets.
import { request } from 'undici';
import type { Dataset, DatasetMap, DatasetRecord } from '../../../src-main/emulator/index.ts';

export interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  text(): string;
  json<T = unknown>(): T;
}

/** One request, the body read in full. Rejects when the connection drops or the body comes short. */
export async function call(url: string, init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: string } = {}): Promise<Reply> {
  const res = await request(url, { method: init.method ?? 'GET', headers: init.headers, body: init.body });
  const body = Buffer.from(await res.body.arrayBuffer());
  return {
    status: res.statusCode,
    headers: res.headers,
    body,
    text: () => body.toString('utf8'),
    json: <T = unknown>() => JSON.parse(body.toString('utf8')) as T,
  };
}

export const get = (url: string, headers?: Record<string, string>): Promise<Reply> => call(url, { headers });

/** The seed's error body (section 7). */
export interface ApiErrorBody {
  code: string;
  correlation_id: string;
  message: string;
  info?: Record<string, string> | string[];
}

export interface WireMap extends Omit<DatasetMap, 'secretThreshold'> {
  fileUrl: string;
  thumbnailUrl: string;
}

export interface WireRecord extends Omit<DatasetRecord, 'replayBase64' | 'url'> {
  url: string;
}

export const SENTINEL = 4294967295;

/**
 * Fixed moments generated data is as of (its `now`), for tests that read its calendar: mid-November 2026 (Fall 2026,
 * November played to the 15th) for the season style, mid-May 2026 (Spring 2026, May played to the 12th) for the hostile one.
 */
export const SEASON_NOW = Date.parse('2026-11-15T20:00:00Z');
export const HOSTILE_NOW = Date.parse('2026-05-12T20:00:00Z');

/** One map of each kind the generator makes (any dataset of six maps or more has them all). */
export function mapsByKind(dataset: Dataset): { race: DatasetMap; clones: DatasetMap; stunt: DatasetMap; platform: DatasetMap; secret: DatasetMap } {
  const find = (what: string, test: (m: DatasetMap) => boolean): DatasetMap => {
    const map = dataset.maps.find(test);
    if (!map) throw new Error(`the dataset has no ${what} map`);
    return map;
  };
  const isRace = (m: DatasetMap): boolean => m.mapType.endsWith('TM_Race');
  return {
    race: find('plain race', (m) => isRace(m) && !m.hasClones && m.secretThreshold === undefined),
    clones: find('clones', (m) => isRace(m) && m.hasClones),
    stunt: find('stunt', (m) => m.mapType.endsWith('TM_Stunt')),
    platform: find('platform', (m) => m.mapType.endsWith('TM_Platform')),
    secret: find('secret threshold', (m) => m.secretThreshold !== undefined),
  };
}

/** The records of one leaderboard: personal bests (season null) or a season's. */
export function recordsOf(dataset: Dataset, mapId: string, seasonId: string | null = null): DatasetRecord[] {
  return dataset.records.filter((r) => r.mapId === mapId && r.scopeId === seasonId);
}

export function accountsOf(dataset: Dataset): string[] {
  return [...new Set(dataset.records.map((r) => r.accountId))].sort();
}

export function recordsUrl(base: string, params: Record<string, string | undefined>, path = '/v2/mapRecords/'): string {
  const query = Object.entries(params)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  return `${base}${path}?${query}`;
}

/** A valid UUID that names nothing in any generated dataset. */
export function unknownUuid(n: number): string {
  return `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
}
