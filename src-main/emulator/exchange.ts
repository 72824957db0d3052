// A Trackmania Exchange stub (served under {emulator}/tmx): GET /api/maps with the public API's `fields`, `id`,
// `mappackid`, `count` and `after`, answering {"More": boolean, "Results": [...]} from the dataset's Exchange numbers
// and packs, and GET /api/mappacks with `fields` (MappackId, Name) and `id`. Unknown numbers are left out and an
// unknown pack gives no results, as the real API does.
import { json, type Answer } from './answers.ts';
import type { DatasetMap } from './dataset.ts';
import type { DatasetIndex } from './lookup.ts';

/** The fields the stub knows; the real API has many more and refuses unknown ones the same way. */
const FIELDS: Record<string, (m: DatasetMap) => unknown> = {
  MapId: (m) => m.exchangeId,
  MapUid: (m) => m.mapUid,
  Name: (m) => m.name,
  GbxMapName: (m) => m.name,
};
const DEFAULT_COUNT = 40;
const MAX_COUNT = 100;

/** The API's validation errors are problem+json documents. */
function problem(detail: string): Answer {
  const answer = json(400, { type: 'https://tools.ietf.org/html/rfc9110#section-15.5.1', title: 'Bad Request', status: 400, detail });
  answer.contentType = 'application/problem+json; charset=utf-8';
  return answer;
}

function whole(text: string): number | undefined {
  return /^\d{1,10}$/.test(text) ? Number(text) : undefined;
}

export function searchExchangeMaps(index: DatasetIndex, query: URLSearchParams): Answer {
  const fieldsText = query.get('fields');
  if (!fieldsText) return problem("The 'fields' parameter is required.");
  const fields = fieldsText.split(',').map((f) => f.trim());
  const unknown = fields.find((f) => !(f in FIELDS));
  if (unknown !== undefined) return problem(`Specified field '${unknown}' does not exist`);
  const count = query.get('count') === null ? DEFAULT_COUNT : whole(query.get('count')!);
  if (count === undefined || count < 1) return problem("Invalid value for 'count'.");
  const after = query.get('after') === null ? undefined : whole(query.get('after')!);
  if (query.get('after') !== null && after === undefined) return problem("Invalid value for 'after'.");

  const { maps, exchangePacks } = index.dataset;
  const byExchangeId = new Map<number, DatasetMap>();
  for (const m of maps) if (m.exchangeId !== undefined) byExchangeId.set(m.exchangeId, m);
  let found: DatasetMap[];
  const idText = query.get('id');
  const packText = query.get('mappackid');
  if (idText !== null) {
    const ids = idText.split(',').map((t) => whole(t.trim()));
    if (ids.some((id) => id === undefined)) return problem("Invalid value for 'id'.");
    found = [...new Set(ids as number[])].flatMap((id) => byExchangeId.get(id) ?? []).sort((a, b) => a.exchangeId! - b.exchangeId!);
  } else if (packText !== null) {
    const packId = whole(packText);
    if (packId === undefined) return problem("Invalid value for 'mappackid'.");
    const pack = exchangePacks?.find((p) => p.packId === packId);
    found = (pack?.exchangeIds ?? []).flatMap((id) => byExchangeId.get(id) ?? []);
  } else {
    found = [...byExchangeId.values()].sort((a, b) => a.exchangeId! - b.exchangeId!);
  }
  // `after` is a cursor: the results that follow the one with that MapId, in this answer's order.
  if (after !== undefined) {
    const at = found.findIndex((m) => m.exchangeId === after);
    found = at < 0 ? [] : found.slice(at + 1);
  }
  const page = found.slice(0, Math.min(count, MAX_COUNT));
  return json(200, {
    More: found.length > page.length,
    Results: page.map((m) => Object.fromEntries(fields.map((f) => [f, FIELDS[f]!(m)]))),
  });
}

/** The pack fields the stub knows (the real API has more: owner, map count, dates...). */
const PACK_FIELDS: Record<string, (p: { packId: number; name: string }) => unknown> = {
  MappackId: (p) => p.packId,
  Name: (p) => p.name,
};

/** GET /api/mappacks?fields=MappackId,Name&id=<id>: the pack with that number, or no results. */
export function searchExchangePacks(index: DatasetIndex, query: URLSearchParams): Answer {
  const fieldsText = query.get('fields');
  if (!fieldsText) return problem("The 'fields' parameter is required.");
  const fields = fieldsText.split(',').map((f) => f.trim());
  const unknown = fields.find((f) => !(f in PACK_FIELDS));
  if (unknown !== undefined) return problem(`Specified field '${unknown}' does not exist`);
  const idText = query.get('id');
  const id = idText === null ? undefined : whole(idText);
  if (idText !== null && id === undefined) return problem("Invalid value for 'id'.");
  const packs = (index.dataset.exchangePacks ?? []).filter((p) => id === undefined || p.packId === id).slice(0, DEFAULT_COUNT);
  return json(200, { More: false, Results: packs.map((p) => Object.fromEntries(fields.map((f) => [f, PACK_FIELDS[f]!(p)]))) });
}
