// Lists from a source: what players play (the current or an earlier seasonal campaign, a Track of the Day month, a
// club campaign, a Trackmania Exchange map pack) read as text (`campaign:current`, `totd:2026-11`...) and resolved
// to map UIDs through the Live and Exchange clients.
import type { ExchangeClient } from '../../exchange/client.ts';
import { AbortError, ErrorCode, NadeoError } from '../http/errors.ts';
import type { Campaign, LiveClient } from '../live/client.ts';
import { printable } from '../../../shared/format.ts';
import { parseSourceLink } from './links.ts';

export type ListSource =
  | { kind: 'campaign'; which: 'current' }
  | { kind: 'campaign'; which: 'named'; name: string }
  | { kind: 'totd'; year: number; month: number }
  | { kind: 'club'; clubId: number; campaignId: number }
  | { kind: 'tmx-pack'; packId: number };

export const LIST_SOURCE_FORMS = 'campaign:current, campaign:<name> (e.g. campaign:Fall 2025), totd:YYYY-MM, club:<clubId>/<campaignId>, tmx-pack:<id>, or a trackmania.io club campaign or Trackmania Exchange map pack link';

/** A source that does not exist or holds no maps; the message says which and what to do. */
export class SourceError extends NadeoError {
  constructor(message: string) {
    super(ErrorCode.NOT_FOUND, message);
    this.name = 'SourceError';
  }
}

function positiveId(text: string): number | undefined {
  if (!/^[1-9]\d{0,9}$/.test(text)) return undefined;
  const n = Number(text);
  return n <= 2 ** 31 - 1 ? n : undefined;
}

/** Reads a source as players write it. Never throws: a bad one comes back with the reason. */
export function parseListSource(text: string): { ok: true; source: ListSource } | { ok: false; reason: string } {
  const input = text.trim();
  const link = parseSourceLink(input);
  if (link) {
    if (link.kind === 'club-campaign') return { ok: true, source: { kind: 'club', clubId: link.clubId, campaignId: link.campaignId } };
    if (link.kind === 'tmx-pack') return { ok: true, source: { kind: 'tmx-pack', packId: link.packId } };
    if (link.kind === 'invalid') return { ok: false, reason: link.reason };
    return { ok: false, reason: `a ${link.kind === 'player' ? 'player' : 'single map'} link is not a list source; use ${LIST_SOURCE_FORMS}` };
  }
  const colon = input.indexOf(':');
  const kind = colon < 0 ? input.toLowerCase() : input.slice(0, colon).trim().toLowerCase();
  const rest = colon < 0 ? '' : input.slice(colon + 1).trim();
  switch (kind) {
    case 'campaign':
      if (rest === '') return { ok: false, reason: 'say which campaign: campaign:current or campaign:<name>, e.g. campaign:Fall 2025' };
      return { ok: true, source: rest.toLowerCase() === 'current' ? { kind: 'campaign', which: 'current' } : { kind: 'campaign', which: 'named', name: rest } };
    case 'totd': {
      const m = /^(\d{4})-(\d{2})$/.exec(rest);
      const month = m ? Number(m[2]) : 0;
      if (!m || month < 1 || month > 12) return { ok: false, reason: `"${rest.slice(0, 20)}" is not a month; write totd:YYYY-MM, e.g. totd:2026-11` };
      return { ok: true, source: { kind: 'totd', year: Number(m[1]), month } };
    }
    case 'club': {
      const [a = '', b = '', extra] = rest.split('/');
      const clubId = positiveId(a.trim());
      const campaignId = positiveId(b.trim());
      if (clubId === undefined || campaignId === undefined || extra !== undefined) {
        return { ok: false, reason: `"${rest.slice(0, 40)}" is not a club campaign; write club:<clubId>/<campaignId> (both numbers, as in its trackmania.io link)` };
      }
      return { ok: true, source: { kind: 'club', clubId, campaignId } };
    }
    case 'tmx-pack': {
      const packId = positiveId(rest);
      if (packId === undefined) return { ok: false, reason: `"${rest.slice(0, 20)}" is not a map pack number; write tmx-pack:<id>, e.g. tmx-pack:1234` };
      return { ok: true, source: { kind: 'tmx-pack', packId } };
    }
    default:
      return { ok: false, reason: `"${input.slice(0, 40)}" is not a list source; use ${LIST_SOURCE_FORMS}` };
  }
}

/** The text form of a source (what parseListSource reads back to the same source). */
export function formatListSource(source: ListSource): string {
  switch (source.kind) {
    case 'campaign':
      return source.which === 'current' ? 'campaign:current' : `campaign:${source.name}`;
    case 'totd':
      return `totd:${source.year}-${String(source.month).padStart(2, '0')}`;
    case 'club':
      return `club:${source.clubId}/${source.campaignId}`;
    case 'tmx-pack':
      return `tmx-pack:${source.packId}`;
  }
}

export interface ResolvedSource {
  source: ListSource;
  /**
   * The same source pinned down: `campaign:current` becomes the named campaign it is today, so a list made from it
   * keeps following that campaign after the season changes. Store this one.
   */
  pinned: ListSource;
  /** What the list is, in the player's words, e.g. "Fall 2025" or "Track of the Day 2026-11". */
  title: string;
  /** Map UIDs in the source's order (playlist order, day order, pack order), each once. */
  mapUids: string[];
  /** Things worth telling the player (days not played yet...). */
  notes: string[];
}

export interface SourceClients {
  live?: LiveClient | undefined;
  exchange?: ExchangeClient | undefined;
}

function campaignKey(name: string): string {
  return printable(name).toLowerCase().replace(/[\s_-]+/g, ' ').trim();
}

function unique(uids: string[]): string[] {
  return [...new Set(uids)];
}

function needLive(clients: SourceClients): LiveClient {
  if (!clients.live) throw new NadeoError(ErrorCode.CONFIG, 'Campaigns, Tracks of the Day and club campaigns come from the Live services: a Live client is needed.');
  return clients.live;
}

const CAMPAIGN_PAGE = 10;
/** Seasonal campaigns read at most when looking one up by name (four a year since 2020): an inflated itemCount stops here. */
export const MAX_CAMPAIGN_PAGES = 20;
/** The most maps a source may bring: what one list holds (the contract's addMaps ceiling). */
export const MAX_SOURCE_MAPS = 5000;

async function findCampaign(live: LiveClient, name: string, signal: AbortSignal | undefined): Promise<Campaign> {
  const wanted = campaignKey(name);
  const seen: string[] = [];
  const ids = new Set<number>();
  for (let page = 0; page < MAX_CAMPAIGN_PAGES; page++) {
    const { campaigns, itemCount } = await live.getSeasonalCampaigns({ offset: page * CAMPAIGN_PAGE, length: CAMPAIGN_PAGE, signal });
    const hit = campaigns.find((c) => campaignKey(c.name) === wanted);
    if (hit) return hit;
    const fresh = campaigns.filter((c) => !ids.has(c.id));
    for (const c of fresh) ids.add(c.id);
    seen.push(...fresh.map((c) => c.name));
    // A page that brings no campaign not seen before is the end, whatever itemCount claims.
    if (fresh.length === 0 || (page + 1) * CAMPAIGN_PAGE >= itemCount) break;
  }
  const some = seen.slice(0, 4).map(printable).join(', ');
  throw new SourceError(`There is no seasonal campaign named "${printable(name)}".${some ? ` The latest are: ${some}.` : ''}`);
}

/** A source's maps, each once; more than a list holds is refused before anything is stored. */
function sourceMaps(title: string, uids: readonly string[]): string[] {
  const out = unique([...uids]);
  if (out.length > MAX_SOURCE_MAPS) {
    throw new NadeoError(
      ErrorCode.TOO_LARGE,
      `${title} holds ${out.length.toLocaleString('en-US')} maps, more than a list can follow (${MAX_SOURCE_MAPS.toLocaleString('en-US')}); nothing was added.`,
    );
  }
  return out;
}

function monthIndex(year: number, month: number): number {
  return year * 12 + (month - 1);
}

async function resolveTotd(live: LiveClient, year: number, month: number, signal: AbortSignal | undefined): Promise<{ mapUids: string[]; notes: string[] }> {
  const label = `${year}-${String(month).padStart(2, '0')}`;
  // Offsets count back from the service's current month: learn it first, then ask for the one wanted.
  const current = await live.getTrackOfTheDayMonths({ offset: 0, length: 1, signal });
  const now = current.months[0];
  if (!now) throw new SourceError(`The service lists no Track of the Day month at all; try again later.`);
  let offset = monthIndex(now.year, now.month) - monthIndex(year, month);
  if (offset < 0) throw new SourceError(`Track of the Day ${label} has not started yet (the current month is ${now.year}-${String(now.month).padStart(2, '0')}).`);
  let found = offset === 0 ? now : undefined;
  for (let attempt = 0; !found && attempt < 2; attempt++) {
    const page = await live.getTrackOfTheDayMonths({ offset, length: 1, signal });
    const got = page.months[0];
    if (!got) break;
    if (got.year === year && got.month === month) found = got;
    // The current month turned over between the two requests: correct the offset once.
    else offset += monthIndex(got.year, got.month) - monthIndex(year, month);
    if (offset < 0) break;
  }
  if (!found) throw new SourceError(`There is no Track of the Day month ${label} (Tracks of the Day began in July 2020).`);
  const played = found.days.filter((d) => d.mapUid !== null);
  if (played.length === 0) throw new SourceError(`Track of the Day ${label} has no maps yet: no day of it has been played.`);
  const notes: string[] = [];
  const waiting = found.days.length - played.length;
  if (waiting > 0) notes.push(`${waiting} day${waiting === 1 ? '' : 's'} of ${label} not played yet; a later sync adds their maps.`);
  return { mapUids: unique(played.map((d) => d.mapUid!)), notes };
}

/**
 * A pack's name, or null when the Exchange has none for it or cannot say: the name only titles the list, so a
 * failure to read it falls back to the pack's number instead of refusing a pack whose maps were read.
 */
async function packName(exchange: ExchangeClient, packId: number, signal: AbortSignal | undefined): Promise<string | null> {
  try {
    return await exchange.getMapPackName(packId, { signal });
  } catch (error) {
    if (signal?.aborted || error instanceof AbortError) throw error;
    return null;
  }
}

/**
 * Resolves a source to its maps. Throws SourceError for a source that does not exist or holds no maps. `title` is
 * the one already known (a list's refresh): a pack's name is then not asked again.
 */
export async function resolveListSource(source: ListSource, clients: SourceClients, o: { signal?: AbortSignal | undefined; title?: string | undefined } = {}): Promise<ResolvedSource> {
  switch (source.kind) {
    case 'campaign': {
      const live = needLive(clients);
      let campaign: Campaign | undefined;
      if (source.which === 'current') {
        campaign = (await live.getSeasonalCampaigns({ offset: 0, length: 1, signal: o.signal })).campaigns[0];
        if (!campaign) throw new SourceError('The service lists no seasonal campaign right now; try again later.');
      } else {
        campaign = await findCampaign(live, source.name, o.signal);
      }
      if (campaign.mapUids.length === 0) throw new SourceError(`The campaign "${printable(campaign.name)}" has no maps.`);
      const mapUids = sourceMaps(`The campaign "${printable(campaign.name)}"`, campaign.mapUids);
      // A remote name is kept as one harmless line (no control or direction characters): it is stored and shown.
      const title = printable(campaign.name) || `campaign ${campaign.id}`;
      return { source, pinned: { kind: 'campaign', which: 'named', name: title }, title, mapUids, notes: [] };
    }
    case 'totd': {
      const { mapUids, notes } = await resolveTotd(needLive(clients), source.year, source.month, o.signal);
      return { source, pinned: source, title: `Track of the Day ${formatListSource(source).slice(5)}`, mapUids, notes };
    }
    case 'club': {
      const campaign = await needLive(clients).getClubCampaign(source.clubId, source.campaignId, o);
      if (campaign.mapUids.length === 0) throw new SourceError(`The club campaign "${printable(campaign.name)}" has no maps.`);
      const title = printable(campaign.name) || `club campaign ${source.campaignId}`;
      return { source, pinned: source, title, mapUids: sourceMaps(`The club campaign "${printable(campaign.name)}"`, campaign.mapUids), notes: [] };
    }
    case 'tmx-pack': {
      if (!clients.exchange) throw new NadeoError(ErrorCode.CONFIG, 'Map packs come from Trackmania Exchange: an Exchange client is needed.');
      const pack = await clients.exchange.getMapPack(source.packId, o);
      if (pack.maps.length === 0) throw new SourceError(`Trackmania Exchange map pack ${source.packId} has no maps, or does not exist. Check the pack's number.`);
      // Titled by the pack's name (issue 17 §2.10), else by its number.
      const name = o.title ?? (await packName(clients.exchange, source.packId, o.signal));
      const title = printable(name ?? '').trim() || `Trackmania Exchange pack ${source.packId}`;
      return { source, pinned: source, title, mapUids: sourceMaps(`Trackmania Exchange map pack ${source.packId}`, pack.maps.map((m) => m.mapUid)), notes: [] };
    }
  }
}
