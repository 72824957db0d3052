// The seed's objects (2.1 map info, 2.2 map record, 7 error body) as zod schemas. Loose objects: fields the
// service adds later pass through untouched; a field of the wrong type is a SchemaError naming its path.
import { z } from 'zod';
import { SchemaError, type ApiErrorBody } from './errors.ts';

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

export const ApiErrorWire = z.looseObject({
  code: z.string(),
  correlation_id: z.string().optional(),
  message: z.string().optional(),
  info: z.union([z.record(z.string(), z.unknown()), z.array(z.string())]).optional(),
});

// Login and refresh answers (docs/nadeo-api.md: both give the same shape; refresh may omit the refresh token).
export const TokenPairWire = z.looseObject({
  accessToken: z.string().min(1),
  refreshToken: z.string().min(1).optional(),
});

export const OAuthTokenWire = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.string().optional(),
  expires_in: z.number().positive().optional(),
});

// Some PHP backends encode an empty map as `[]` (docs/nadeo-api.md "Beyond the seed"): that is "no names".
export const DisplayNamesWire = z.preprocess((v) => (Array.isArray(v) && v.length === 0 ? {} : v), z.record(z.string(), z.string()));

/** `records[3].recordScore.time` from a zod path under a named root. */
export function formatPath(root: string, path: readonly PropertyKey[]): string {
  let out = root;
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out === '' ? '(body)' : out;
}

function describeIssue(issue: z.core.$ZodIssue, value: unknown): string {
  if (issue.code === 'invalid_type') {
    let received: string;
    if (value === undefined) received = 'missing';
    else if (value === null) received = 'null';
    else if (Array.isArray(value)) received = 'an array';
    else received = typeof value;
    return `expected ${issue.expected}, got ${received}`;
  }
  return issue.message;
}

function valueAt(data: unknown, path: readonly PropertyKey[]): unknown {
  let cur: unknown = data;
  for (const key of path) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<PropertyKey, unknown>)[key];
  }
  return cur;
}

/** Parses with `schema` or throws a SchemaError naming the first bad field under `root`. */
export function parseBody<S extends z.ZodType>(schema: S, data: unknown, route: string, root: string): z.output<S> {
  const result = schema.safeParse(data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  if (!issue) throw new SchemaError(route, root || '(body)', 'invalid');
  throw new SchemaError(route, formatPath(root, issue.path), describeIssue(issue, valueAt(data, issue.path)));
}

/** The API's error body when `data` is one, else undefined (a proxy's HTML page, an empty body...). */
export function readApiError(data: unknown): ApiErrorBody | undefined {
  const result = ApiErrorWire.safeParse(data);
  return result.success ? (result.data as ApiErrorBody) : undefined;
}

/** API error codes look like `C-AA-00-03`; anything else in a 404/410 is a proxy or a removed route. */
export function isApiErrorCode(code: string | undefined): boolean {
  return code !== undefined && /^[A-Z]-[A-Z]{2}-\d{2}-\d{2}$/.test(code);
}
