// Core's accounts routes the emulator serves: club tags (openplanet-nl/nadeoapi-docs docs/core/accounts/club-tags.md,
// docs/nadeo-api.md "Player names"). Display names themselves come from the OAuth API (oauth.ts).
import { json, validationError, type Answer } from './answers.ts';
import { UUID_PATTERN } from './dataset.ts';
import type { DatasetIndex } from './lookup.ts';
import { fnv1a } from './prng.ts';

/** When a player's tag was set: not in the dataset, so a stable moment per account in 2025. */
function tagSetAt(accountId: string): string {
  const ms = Date.UTC(2025, 0, 1) + (fnv1a(`club-tag|${accountId}`) % (364 * 86_400)) * 1000;
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, '+00:00');
}

/**
 * GET /accounts/clubTags/?accountIdList=<ids>: `[{accountId, clubTag, timestamp}]`, the tag with its formatting codes.
 * An invalid ID gives the validation error with an info object (the docs' example). Not shown by the docs: an
 * account without a tag is left out (a client must read a missing entry and an empty tag alike).
 */
export function clubTags(index: DatasetIndex, query: URLSearchParams): Answer {
  const ids = (query.get('accountIdList') ?? '').split(',').filter((id) => id !== '');
  if (ids.length === 0 || ids.some((id) => !UUID_PATTERN.test(id))) return validationError({ accountIdList: 'Invalid account id.' });
  const tags = new Map(Object.entries(index.dataset.clubTags ?? {}).map(([id, tag]) => [id.toLowerCase(), tag]));
  const answer: { accountId: string; clubTag: string; timestamp: string }[] = [];
  for (const accountId of new Set(ids.map((id) => id.toLowerCase()))) {
    const clubTag = tags.get(accountId);
    if (clubTag !== undefined) answer.push({ accountId, clubTag, timestamp: tagSetAt(accountId) });
  }
  // Answers do not follow request order (docs/nadeo-api.md).
  return json(200, answer.sort((a, b) => fnv1a(a.accountId) - fnv1a(b.accountId)));
}
