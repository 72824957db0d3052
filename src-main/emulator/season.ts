// The 'season' style of generated data: what a player meets in the game. An official campaign named as Nadeo names
// it, community maps with the formatting codes mappers use, players with nicknames, some in a club with a tag.
import { DAY_MS, seasonAt, totdMonthsAt } from './calendar.ts';
import type { LiveCalendar } from './live-generator.ts';
import { intBetween, pick, type Rng } from './prng.ts';

export type MapKind = 'race' | 'clones' | 'stunt' | 'platform';

/** One map of a season: what it is, before its scores and records are drawn. */
export interface SeasonMapPlan {
  kind: MapKind;
  /** 'campaign': an official map by Nadeo; 'community': a player's map. */
  source: 'campaign' | 'community';
  /** Its place in its campaign (1..25), for official maps. */
  number?: number;
  /** Official maps of the same campaign share it; 0 is the current one. */
  campaign?: number;
  /** A threshold at the author time, as Weekly Shorts have it (docs/nadeo-api.md "Top Secret"). */
  secret: boolean;
}

/** Maps in one official campaign. */
export const CAMPAIGN_SIZE = 25;
/** Community maps are made over the 625 days before the records end. */
const COMMUNITY_MAPS_SPAN_MS = 625 * DAY_MS;

/** When community maps begin to be made, for a season as of `nowMs` (its records end then). */
export function communityMapsFrom(nowMs: number): number {
  return nowMs - COMMUNITY_MAPS_SPAN_MS;
}

/** The first community maps cover every kind, so any season of five maps or more has them all. */
const COMMUNITY_FIRST: ReadonlyArray<{ kind: MapKind; secret: boolean }> = [
  { kind: 'clones', secret: false },
  { kind: 'stunt', secret: false },
  { kind: 'platform', secret: false },
  { kind: 'race', secret: true },
  { kind: 'race', secret: false },
];
const COMMUNITY_LATER: readonly MapKind[] = ['race', 'race', 'race', 'race', 'clones', 'stunt', 'platform'];

/**
 * Official campaign maps first (the current campaign, then earlier ones), then community maps: about three in eight
 * maps, at least five when there is room, so every kind of map is there. Kinds of later community maps are drawn.
 */
export function seasonLayout(rng: Rng, count: number): SeasonMapPlan[] {
  const community = Math.min(count, Math.max(COMMUNITY_FIRST.length, Math.floor(count * 0.375)));
  const official = count - community;
  const plan: SeasonMapPlan[] = [];
  for (let i = 0; i < official; i++)
    plan.push({ kind: 'race', source: 'campaign', campaign: Math.floor(i / CAMPAIGN_SIZE), number: (i % CAMPAIGN_SIZE) + 1, secret: false });
  for (let i = 0; i < community; i++) {
    const first = COMMUNITY_FIRST[i];
    plan.push({ kind: first?.kind ?? pick(rng, COMMUNITY_LATER), source: 'community', secret: first?.secret ?? false });
  }
  return plan;
}

/** The name and release of an official campaign as of `nowMs`: 0 is the one running then, 1 the one before, and so on back. */
export function campaignOf(campaign: number, nowMs: number): { name: string; releaseMs: number } {
  const season = seasonAt(nowMs, campaign);
  return { name: season.name, releaseMs: season.startMs };
}

/** ISO 8601 with the numeric offset datasets use. */
function isoUtc(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/**
 * The Live calendar of a season as of `nowMs`: the current campaign and the two before it, each made of its own
 * official maps ("Fall 2026 - 01"...) when the layout has them, and the Track of the Day months of the last weeks
 * (the month before, and the current one played up to the day of `nowMs`).
 */
export function seasonCalendar(layout: readonly SeasonMapPlan[], nowMs: number): LiveCalendar {
  const community = layout.flatMap((plan, index) => (plan.source === 'community' ? [index] : []));
  const campaigns = [0, 1, 2].map((k) => {
    const own = layout
      .map((plan, index) => ({ plan, index }))
      .filter(({ plan }) => plan.source === 'campaign' && plan.campaign === k)
      .sort((a, b) => (a.plan.number ?? 0) - (b.plan.number ?? 0))
      .map(({ index }) => index);
    // A campaign the dataset has no official maps of is played on its community maps, never on another season's.
    const stand = Array.from({ length: Math.min(CAMPAIGN_SIZE, community.length) }, (_, i) => community[(k * CAMPAIGN_SIZE + i) % community.length]!);
    const season = seasonAt(nowMs, k);
    return { name: season.name, start: isoUtc(season.startMs), end: isoUtc(season.endMs), maps: own.length > 0 ? own : stand };
  });
  const { previous, current, daysOpened } = totdMonthsAt(nowMs);
  return { campaigns, totd: { previous, current, daysPlayed: daysOpened } };
}

/** "Fall 2026 - 01": official map names are plain text, as the game has them. */
export function campaignMapName(campaign: number, number: number, nowMs: number): string {
  return `${campaignOf(campaign, nowMs).name} - ${String(number).padStart(2, '0')}`;
}

/** The author time of an official map: 01-05 (white) are short, 21-25 (black) long. */
export function campaignAuthorTime(rng: Rng, number: number): number {
  const tier = Math.min(4, Math.floor((number - 1) / 5));
  const low = 20000 + tier * 7000;
  return intBetween(rng, low, low + 12000);
}

const THEMES = [
  'Neon', 'Skyline', 'Dusty', 'Frozen', 'Turbo', 'Lagoon', 'Coastal', 'Midnight', 'Temple', 'Canyon', 'Velvet', 'Copper',
  'Rapid', 'Sunset', 'Crystal', 'Lunar', 'Emerald', 'Gravel', 'Hyper', 'Harbour', 'Alpine', 'Desert', 'Rusty', 'Golden',
];
const NOUNS = [
  'Rush', 'Drift', 'Breaker', 'Valley', 'Loop', 'Flow', 'Express', 'Circuit', 'Sprint', 'Rally', 'Cascade', 'Junction',
  'Heights', 'Ridge', 'Spiral', 'Boulevard', 'Gardens', 'Dash', 'Highway', 'Getaway', 'Playground', 'Lines', 'Wallride', 'Bends',
];
const KIND_WORDS: Record<MapKind, readonly string[]> = {
  race: ['', '', '', 'Tech', 'FullSpeed', 'Dirt', 'Ice', 'Bobsleigh', 'Water'],
  clones: ['Clones', 'Twins', 'Mirror', 'Doubles'],
  stunt: ['Stunt Park', 'Airtime', 'Trick Zone', 'Stunt Arena'],
  platform: ['Platform', 'Ascent', 'Tower', 'Climb'],
};
/** Colours of three hex digits, as mappers pick them. */
const COLOURS = ['$f80', '$0cf', '$a1b', '$fc0', '$0f8', '$f33', '$c6f', '$39f', '$fff', '$7f0', '$f6a', '$ccc'];
const GRADIENTS: ReadonlyArray<readonly [string, string]> = [
  ['f00', 'fc0'], ['0cf', '06f'], ['f0f', '90f'], ['0f8', '0a4'], ['fa0', 'f30'],
];

/** `$f00N$f30e$f60o$f90n`: one colour per letter, from one colour to another, as many names are written. */
function gradient(text: string, [from, to]: readonly [string, string]): string {
  const letters = [...text];
  const steps = Math.max(1, letters.length - 1);
  const channel = (hex: string, i: number): number => parseInt(hex.charAt(i), 16);
  return letters
    .map((letter, i) => {
      if (letter === ' ') return letter;
      const digits = [0, 1, 2].map((c) => Math.round(channel(from, c) + ((channel(to, c) - channel(from, c)) * i) / steps).toString(16));
      return `$${digits.join('')}${letter}`;
    })
    .join('');
}

/** A community map's name with the formatting codes mappers use: italics, bold, wide, shadow, colours, gradients. */
export function communityMapName(rng: Rng, kind: MapKind): string {
  const theme = pick(rng, THEMES);
  const noun = pick(rng, NOUNS);
  const word = pick(rng, KIND_WORDS[kind]);
  const base = `${theme} ${noun}`;
  const decorated = [
    // As docs/nadeo-api.md's example: "$i$a1bLaserhawk $fff- Megacity Race".
    () => `$i${pick(rng, COLOURS)}${theme}${noun} $fff- ${word || 'Race'}`,
    () => `$o$w${pick(rng, COLOURS)}${base}${word ? `$z ${word}` : ''}`,
    () => `$s${gradient(base, pick(rng, GRADIENTS))}${word ? ` $fff${word}` : ''}`,
    () => `${pick(rng, COLOURS)}${theme}$z ${noun}${word ? ` $n(${word})` : ''}`,
    () => `$o${pick(rng, COLOURS)}${base.toUpperCase()}${word ? `$z$i ${word}` : ''}`,
    () => `${base}${word ? ` - ${word}` : ''}`,
  ];
  return pick(rng, decorated)();
}

const NICKNAMES = [
  'Skyline', 'Kessel', 'Drifto', 'MiraVee', 'Lumi', 'xNova', 'Bramble', 'Pixelfox', 'Ricochet', 'Volta', 'Zenith', 'Kalimba',
  'Tarmac', 'Quasar', 'Juniper', 'Snowcat', 'Rallye', 'Orbit', 'Mojito', 'Vireo', 'Brisk', 'Nimbus', 'Falco', 'Marmot',
  'Sprocket', 'Tundra', 'Ember', 'Rook', 'LateApex', 'GhostLine', 'NoseBoost', 'SilentGear', 'Pinecone', 'Wavelet',
  'Hayride', 'Cobalt', 'Tidepool', 'Sundial', 'Maverik', 'Lynx', 'Fennec', 'Otter', 'Ravelin', 'Shiver', 'Gumdrop', 'Halcyon',
];
const STYLES = ['', '', '', '', '', '', '_TM', 'TM', '_', '07', 'x', '99', '_fr'];
/** Club tags as clubs style them (docs/nadeo-api.md "Player names"): each club always the same colour and codes. */
const CLUB_TAGS = ['$f80[TMX]', '$s$0cf[NRG]', '$o$fc0GG', '$i$39f[ICE]', '$f33RSE', '$0f8[SPD]', '$c6f(LFT)', '$s$fff[MNT]'];

/**
 * A believable player: a plain display name (a nickname, sometimes with a few digits or a suffix: the OAuth API's
 * names carry no formatting codes) and, for about four players in ten, the tag of their club (`$f80[TMX]`), which
 * Core's club-tags route serves apart. Distinct names for distinct `index`es.
 */
export function seasonPlayer(rng: Rng, index: number): { displayName: string; clubTag?: string } {
  const base = NICKNAMES[index % NICKNAMES.length] ?? 'Player';
  const round = Math.floor(index / NICKNAMES.length);
  const displayName = `${base}${round > 0 ? `_${round + 1}` : pick(rng, STYLES)}`;
  return rng() < 0.4 ? { displayName, clubTag: pick(rng, CLUB_TAGS) } : { displayName };
}
