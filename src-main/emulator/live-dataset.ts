// What the emulator's Live services and Exchange stub serve, as optional dataset fields: seasonal campaigns, Track
// of the Day months, club campaigns and Exchange map packs, all made of the dataset's own maps. Their schemas and
// checks; dataset.ts takes them into the dataset's schema (live-generator.ts fills them for a generated dataset).
import { z } from 'zod';
import { daysInMonth } from './calendar.ts';
import { uuidFromName } from './prng.ts';

/** An official seasonal campaign. The one with the latest start is the current one (offset 0 on the Live route). */
export interface DatasetCampaign {
  id: number;
  /** E.g. "Spring 2026". */
  name: string;
  /** ISO 8601 with offset. */
  start: string;
  end: string;
  /** The playlist, in order. */
  mapUids: string[];
}

/** One month of Tracks of the Day; the month with the latest date is the current one. */
export interface DatasetTotdMonth {
  /** 'YYYY-MM'. */
  month: string;
  /** Day 1 first, one entry per day of the month; '' for a day not yet played. */
  mapUids: string[];
}

export interface DatasetClubCampaign {
  clubId: number;
  campaignId: number;
  clubName: string;
  name: string;
  mapUids: string[];
  /** Open to the club's members only: everyone else gets 403 ["clubMemberRole:error-notMember"]. */
  membersOnly?: boolean;
}

/** A Trackmania Exchange map pack: Exchange map numbers, in the pack's order. */
export interface DatasetExchangePack {
  packId: number;
  name: string;
  exchangeIds: number[];
}

const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?[+-]\d{2}:\d{2}$/;
const timestamp = z.string().regex(TIMESTAMP, { error: 'must be ISO 8601 with a numeric offset, like 2026-05-01T12:00:00+00:00' });
const id = z.number().int({ error: 'must be a whole number' }).min(1).max(2 ** 31 - 1);
const uid = z.string().regex(/^[^\s,]+$/, { error: 'must be a map UID' });

export const campaignsSchema = z.array(z.strictObject({ id, name: z.string().min(1), start: timestamp, end: timestamp, mapUids: z.array(uid).max(200) }));
export const trackOfTheDaySchema = z.array(
  z
    .strictObject({ month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/, { error: "must be 'YYYY-MM'" }), mapUids: z.array(z.union([uid, z.literal('')])) })
    .superRefine((m, ctx) => {
      const days = daysInMonth(m.month);
      if (m.mapUids.length !== days) ctx.addIssue({ code: 'custom', path: ['mapUids'], message: `must list the ${days} days of ${m.month} ('' for a day not yet played)` });
    }),
);
export const clubCampaignsSchema = z.array(
  z.strictObject({ clubId: id, campaignId: id, clubName: z.string(), name: z.string(), mapUids: z.array(uid).max(200), membersOnly: z.boolean().optional() }),
);
export const exchangePacksSchema = z.array(z.strictObject({ packId: id, name: z.string(), exchangeIds: z.array(id) }));

/** The Live and Exchange fields of a dataset, with what they name of its maps. */
export interface LiveFields {
  maps: readonly { mapUid: string; exchangeId?: number | undefined }[];
  campaigns?: DatasetCampaign[] | undefined;
  trackOfTheDay?: DatasetTotdMonth[] | undefined;
  clubCampaigns?: DatasetClubCampaign[] | undefined;
  exchangePacks?: DatasetExchangePack[] | undefined;
}

/** Checks that the Live and Exchange fields name the dataset's own maps, and that their IDs are unique. */
export function liveFieldIssues(dataset: LiveFields): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  const uids = new Set(dataset.maps.map((m) => m.mapUid));
  const exchangeIds = new Map<number, number>();
  dataset.maps.forEach((m, i) => {
    if (m.exchangeId === undefined) return;
    const before = exchangeIds.get(m.exchangeId);
    if (before !== undefined) issues.push({ path: ['maps', i, 'exchangeId'], message: `repeats maps[${before}].exchangeId` });
    else exchangeIds.set(m.exchangeId, i);
  });
  const checkUids = (path: (string | number)[], list: string[]) =>
    list.forEach((u, j) => {
      if (u !== '' && !uids.has(u)) issues.push({ path: [...path, j], message: 'names no map of the dataset' });
    });
  const unique = (field: string, keys: string[]) => {
    const seen = new Map<string, number>();
    keys.forEach((k, i) => {
      const before = seen.get(k);
      if (before !== undefined) issues.push({ path: [field, i], message: `repeats ${field}[${before}]` });
      else seen.set(k, i);
    });
  };
  dataset.campaigns?.forEach((c, i) => checkUids(['campaigns', i, 'mapUids'], c.mapUids));
  unique('campaigns', (dataset.campaigns ?? []).map((c) => String(c.id)));
  dataset.trackOfTheDay?.forEach((m, i) => checkUids(['trackOfTheDay', i, 'mapUids'], m.mapUids));
  unique('trackOfTheDay', (dataset.trackOfTheDay ?? []).map((m) => m.month));
  dataset.clubCampaigns?.forEach((c, i) => checkUids(['clubCampaigns', i, 'mapUids'], c.mapUids));
  unique('clubCampaigns', (dataset.clubCampaigns ?? []).map((c) => `${c.clubId}/${c.campaignId}`));
  dataset.exchangePacks?.forEach((p, i) =>
    p.exchangeIds.forEach((x, j) => {
      if (!exchangeIds.has(x)) issues.push({ path: ['exchangePacks', i, 'exchangeIds', j], message: 'names no map of the dataset (no map has this exchangeId)' });
    }),
  );
  unique('exchangePacks', (dataset.exchangePacks ?? []).map((p) => String(p.packId)));
  return issues;
}

/** A season's stable UID, derived from the campaign (the service's are UUIDs). */
export function seasonUidOf(kind: string, id: number): string {
  return uuidFromName(`season|${kind}|${id}`);
}
