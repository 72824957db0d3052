// Input the contract refused, told as a sentence a player can act on: which thing ("player 2's nickname") and what
// is wrong with it. zod's own wording ("players.1.nickname: Too big: expected string to have <=60 characters") never
// reaches a player; a schema's own message (written as a sentence, e.g. 'A list needs a name.') is kept.

/** One zod issue, as much of it as the sentence needs. */
export interface Issue {
  code: string;
  path: readonly PropertyKey[];
  message: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  expected?: string;
  values?: readonly unknown[];
  keys?: readonly string[];
}

/** Field names in the player's words. */
const FIELDS: Record<string, string> = {
  accountId: 'account ID', accountIds: 'account IDs', nickname: 'nickname', list: 'list name', name: 'name',
  refs: 'maps', mapUids: 'maps', mapUid: 'map', players: 'players', login: 'login', password: 'password',
  contact: 'contact', maxRps: 'request rate', dataDir: 'data folder', replayFolder: 'replay folder',
  clientId: 'client ID', clientSecret: 'client secret', everyMinutes: 'sync interval', theme: 'theme', me: '"me" account',
  first: 'number of rows', bom: 'byte-order mark setting', replays: 'replay setting', credentials: 'credentials',
  scheduledSync: 'scheduled sync', enabled: 'on/off setting', notifications: 'notification setting', worldPositions: 'world positions setting',
  oauth: 'OAuth app',
};
/** What one element of a list field is called. */
const ITEMS: Record<string, string> = { players: 'player', refs: 'map', mapUids: 'map', accountIds: 'account ID' };

const ZOD_WORDING = /^(Too (big|small)|Invalid|Unrecognized|Expected)\b/;

function subjectOf(path: readonly PropertyKey[]): string {
  const parts: string[] = [];
  for (let i = 0; i < path.length; i++) {
    const key = path[i];
    const next = path[i + 1];
    if (typeof key === 'string' && typeof next === 'number') {
      parts.push(`${ITEMS[key] ?? FIELDS[key] ?? key} ${next + 1}`);
      i++;
    } else if (typeof key === 'string') parts.push(FIELDS[key] ?? key);
  }
  if (parts.length === 0) return 'the input';
  return parts.map((p, i) => (i < parts.length - 1 ? `${p}'s` : p)).join(' ');
}

function itemWord(path: readonly PropertyKey[], count: number): string {
  const key = path.at(-1);
  const item = typeof key === 'string' ? (ITEMS[key] ?? FIELDS[key] ?? 'item') : 'item';
  return count === 1 ? item : `${item}s`;
}

function predicateOf(issue: Issue): string {
  const min = issue.minimum === undefined ? undefined : Number(issue.minimum);
  const max = issue.maximum === undefined ? undefined : Number(issue.maximum);
  switch (issue.code) {
    case 'too_big':
      if (issue.origin === 'string') return `is too long: at most ${max} characters`;
      return `is too large: at most ${max}`;
    case 'too_small':
      if (issue.origin === 'string') return min === 1 ? 'is empty' : `is too short: at least ${min} characters`;
      return `is too small: at least ${min}`;
    case 'invalid_type':
      if (/received undefined$/.test(issue.message)) return 'is missing';
      return issue.expected === 'int' ? 'must be a whole number' : `must be ${issue.expected === 'object' ? 'a set of values' : `a ${issue.expected ?? 'valid value'}`}`;
    case 'invalid_value':
      return `must be one of ${(issue.values ?? []).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `has something Trackwatch does not know: ${(issue.keys ?? []).map((k) => `"${k}"`).join(', ')}`;
    default:
      return 'is not valid';
  }
}

/** The issue as one sentence: "Player 2's nickname is too long: at most 60 characters." */
export function issueSentence(issue: Issue): string {
  if (!ZOD_WORDING.test(issue.message)) return issue.message;
  // A list of things too short or too long: say how many to give.
  if (issue.origin === 'array' && issue.code === 'too_small') return `Give at least ${Number(issue.minimum)} ${itemWord(issue.path, Number(issue.minimum))}.`;
  if (issue.origin === 'array' && issue.code === 'too_big') return `Give at most ${Number(issue.maximum)} ${itemWord(issue.path, Number(issue.maximum))} at once.`;
  const subject = subjectOf(issue.path);
  const sentence = `${subject} ${predicateOf(issue)}.`;
  return sentence[0]!.toUpperCase() + sentence.slice(1);
}
