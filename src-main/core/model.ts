// The domain as the rest of Trackwatch sees it: what the API core returns after applying the seed's rules,
// what the store keeps and what the sync engine compares. Plain data and wire constants; the game's rules are
// shared/leaderboard.ts.

/** Game modes the records endpoint takes; derived from a map's type and clones (seed 4.2 rules 3-5). */
export type GameMode = 'TimeAttack' | 'TimeAttackClone' | 'Stunt' | 'Platform';

/** Map information (seed 2.1), as returned by the map info lookup. */
export interface MapInfo {
  mapId: string;
  mapUid: string;
  name: string;
  author: string;
  submitter: string;
  authorScore: number;
  goldScore: number;
  silverScore: number;
  bronzeScore: number;
  mapType: string;
  mapStyle: string;
  collectionName: string;
  filename: string;
  hasClones: boolean;
  isPlayable: boolean;
  createdWithGamepadEditor: boolean;
  createdWithSimpleEditor: boolean;
  timestamp: string;
  fileUrl: string;
  thumbnailUrl: string;
}

/** One account's record on one map (seed 2.2), with the sentinels already turned into meaning. */
export interface PlayerRecord {
  mapRecordId: string;
  mapId: string;
  accountId: string;
  gameMode: string;
  gameModeCustomData: string;
  /** 'PersonalBest' or 'Season' (the service's scopeType). */
  scopeType: string;
  /** null for personal bests; the season ID otherwise. */
  scopeId: string | null;
  /** Milliseconds; null when hidden by a secret threshold (the wire's 4294967295). */
  time: number | null;
  /** True when the service hides the time behind a secret threshold; its replay answers 403. */
  hidden: boolean;
  /** Stunt points (higher is better); 0 on race records. */
  score: number;
  /** null when not tracked (the wire's 4294967295). */
  respawnCount: number | null;
  /** 0 none, 1 bronze, 2 silver, 3 gold, 4 author. */
  medal: number;
  removed: boolean;
  /** ISO 8601, when the record was set. */
  timestamp: string;
  /** Where the replay can be downloaded from. Untrusted: checked before use. */
  url: string;
  /** The service's replay file name. Untrusted and Windows-style: never used as a path. */
  filename: string;
}

/** The wire's "no value" sentinel (2^32 - 1): a hidden time or an untracked respawn count. */
export const SENTINEL_U32 = 4294967295;

// The Live services' leaderboards (docs/nadeo-api.md, "Beyond the seed"; the Openplanet docs' docs/live/leaderboards/).
/** The route takes at most 50 maps a request (docs/live/leaderboards/position.md). */
export const MAX_MAPS_PER_POSITION_REQUEST = 50;
/** The world zone's ID on every Live leaderboard answer. */
export const WORLD_ZONE_ID = '301e1b69-7e13-11e8-8060-e284abfd2bc4';
export const PERSONAL_BEST_GROUP = 'Personal_Best';
