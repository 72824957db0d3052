// Trackmania Exchange links in pasted map refs: a map link (/mapshow/<id>, /maps/<id>/<name>, /s/tr/<id>) or a map
// pack link (/mappack/view/<id>) holds the Exchange's own numbers, which its API turns into map UIDs. Everything
// else pasted goes on to the map refs reader (parseMapRefs) untouched.
import { parseSourceLink, type ExchangeClient } from './nadeo/index.ts';
import { parseMapRefs } from './refs.ts';

export interface ExpandedMapRefs {
  /** What to add: the pasted refs that are not Exchange links, then the UIDs the links stand for, each once. */
  refs: string[];
  /** Each Exchange link that resolved, with its map UIDs. */
  resolved: { input: string; mapUids: string[] }[];
  /** Exchange links the Exchange does not know (or a pack with no maps). */
  notFound: { input: string; reason: string }[];
  /** Links that cannot name a map: broken ones, players, club campaigns. */
  invalid: { input: string; reason: string }[];
}

function isExchangeLink(input: string): boolean {
  return /^(https?:\/\/)?(www\.)?trackmania\.exchange([/?#]|$)/i.test(input);
}

/**
 * Splits pasted text like parseMapRefs does and resolves its Exchange links, one request for every map number
 * (the client batches and caches) and one per pack. The Exchange client is only called when there are links.
 */
export async function expandExchangeLinks(
  text: string | string[],
  exchange: ExchangeClient,
  o: { signal?: AbortSignal | undefined } = {},
): Promise<ExpandedMapRefs> {
  const out: ExpandedMapRefs = { refs: [], resolved: [], notFound: [], invalid: [] };
  const maps: { input: string; exchangeId: number }[] = [];
  const packs: { input: string; packId: number }[] = [];
  for (const { input } of parseMapRefs(text)) {
    const link = parseSourceLink(input);
    if (!link) out.refs.push(input);
    else if (link.kind === 'tmx-map') maps.push({ input, exchangeId: link.exchangeId });
    else if (link.kind === 'tmx-pack') packs.push({ input, packId: link.packId });
    // A broken trackmania.io link may be a map link: the map refs reader says what is wrong with it in its words.
    else if (link.kind === 'invalid' && !isExchangeLink(input)) out.refs.push(input);
    else if (link.kind === 'invalid') out.invalid.push({ input, reason: link.reason });
    else if (link.kind === 'player') out.invalid.push({ input, reason: 'this is a player link, not a map: add the player with "players add"' });
    else out.invalid.push({ input, reason: 'this club campaign link is a whole list: make a list from it ("lists create NAME --from <link>")' });
  }
  const [byNumber, packed] = await Promise.all([
    maps.length > 0 ? exchange.getMaps(maps.map((m) => m.exchangeId), o) : undefined,
    Promise.all(packs.map((p) => exchange.getMapPack(p.packId, o))),
  ]);
  const uidOf = new Map(byNumber?.maps.map((m) => [m.exchangeId, m.mapUid]));
  for (const m of maps) {
    const uid = uidOf.get(m.exchangeId);
    if (uid !== undefined) out.resolved.push({ input: m.input, mapUids: [uid] });
    else out.notFound.push({ input: m.input, reason: `Trackmania Exchange has no map number ${m.exchangeId}` });
  }
  packs.forEach((p, i) => {
    const uids = packed[i]!.maps.map((m) => m.mapUid);
    if (uids.length > 0) out.resolved.push({ input: p.input, mapUids: uids });
    else out.notFound.push({ input: p.input, reason: `Trackmania Exchange map pack ${p.packId} has no maps, or does not exist` });
  });
  const seen = new Set(out.refs);
  for (const { mapUids } of out.resolved) {
    for (const uid of mapUids) {
      if (!seen.has(uid)) out.refs.push(uid);
      seen.add(uid);
    }
  }
  return out;
}
