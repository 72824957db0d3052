// The seed's objects (2.1 map info, 2.2 map record) and the login's answers as zod schemas. Loose objects: fields the
// service adds later pass through untouched; a field of the wrong type is a SchemaError naming its path.
import { z } from 'zod';

export const MapInfoWire = z.looseObject({
  author: z.string(),
  authorScore: z.number().int(),
  bronzeScore: z.number().int(),
  silverScore: z.number().int(),
  goldScore: z.number().int(),
  collectionName: z.string(),
  createdWithGamepadEditor: z.boolean(),
  createdWithSimpleEditor: z.boolean(),
  filename: z.string(),
  hasClones: z.boolean(),
  isPlayable: z.boolean(),
  mapId: z.string(),
  mapUid: z.string(),
  mapStyle: z.string(),
  mapType: z.string(),
  name: z.string(),
  submitter: z.string(),
  timestamp: z.string(),
  fileUrl: z.string(),
  thumbnailUrl: z.string(),
});
export type MapInfoWire = z.infer<typeof MapInfoWire>;
export const MapInfoListWire = z.array(MapInfoWire);

export const RecordScoreWire = z.looseObject({
  time: z.number().int(),
  score: z.number().int(),
  respawnCount: z.number().int(),
});

export const MapRecordWire = z.looseObject({
  accountId: z.string(),
  mapId: z.string(),
  mapRecordId: z.string(),
  filename: z.string(),
  gameMode: z.string(),
  gameModeCustomData: z.string(),
  medal: z.number().int(),
  recordScore: RecordScoreWire,
  removed: z.boolean(),
  scopeId: z.string().nullable(),
  scopeType: z.string(),
  timestamp: z.string(),
  url: z.string(),
});
export type MapRecordWire = z.infer<typeof MapRecordWire>;
export const MapRecordListWire = z.array(MapRecordWire);

// Login and refresh answers (docs/nadeo-api.md: both give the same shape; refresh may omit the refresh token).
export const TokenPairWire = z.looseObject({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1).optional(),
});
