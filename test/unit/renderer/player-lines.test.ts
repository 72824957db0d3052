// Pasted players: one per line, an ID or a trackmania.io link, then maybe a nickname; never an ID as a nickname.
import { describe, expect, it } from 'vitest';
import { accountIdOf, parsePlayerLines, playerLineOutcomes, resolveNamedLines, unresolvedNamedLines } from '../../../src-renderer/lib/refs.ts';

const A = '5b4d42f4-c2de-407d-b367-cbff3fe817bc';
const B = 'e3ff2309-bc24-414a-b9f1-81954236c34b';
const C = '0c857beb-fd95-4449-a669-21fb310cacae';

describe('player lines', () => {
  it('reads an ID or a player link, then the rest of the line as the nickname', () => {
    expect(accountIdOf(`https://trackmania.io/#/player/${A}`)).toBe(A);
    expect(accountIdOf(`trackmania.io/#/player/${A.toUpperCase()}/clubs`)).toBe(A);
    expect(accountIdOf('https://trackmania.io/#/leaderboard/abc')).toBeNull();
    expect(parsePlayerLines(`${A} Big  Name\n\nhttps://trackmania.io/#/player/${B}, "Quoted"\n${C}\t`)).toEqual([
      { line: 1, text: `${A} Big  Name`, accountId: A, nickname: 'Big Name', problem: null },
      { line: 3, text: `https://trackmania.io/#/player/${B}, "Quoted"`, accountId: B, nickname: 'Quoted', problem: null },
      { line: 4, text: C, accountId: C, nickname: null, problem: null },
    ]);
  });

  it('never takes an ID for a nickname, and says what is wrong with each line it refuses', () => {
    const lines = parsePlayerLines([`${A}, ${B}`, `Wirtual ${C}`, 'https://example.com/p a name', `${C} ${'x'.repeat(61)}`, `${C} Ok`, `${C.toUpperCase()} Again`].join('\n'));
    expect(lines.map((l) => [l.line, l.accountId, l.nickname, l.problem])).toEqual([
      [1, A, null, '2 account IDs on one line: put each player on a line of their own'],
      [2, null, null, 'the account ID goes first, then the nickname'],
      [3, null, null, 'not an account ID, a trackmania.io player link or a display name'],
      [4, C, null, 'the nickname is longer than 60 characters'],
      [5, C, 'Ok', null],
      [6, C, null, 'the same player as line 5'],
    ]);
  });

  it('tells every line what happened once the service answered', () => {
    const lines = parsePlayerLines([`${A} New`, `${B} Other name`, `${C}`, 'no:pe'].join('\n'));
    const outcomes = playerLineOutcomes(lines, {
      added: [A],
      alreadyListed: [B, C],
      invalid: [],
      nicknamesKept: [{ accountId: B, kept: 'Rival', given: 'Other name' }],
    }, 'Demo');
    expect(outcomes.map((o) => [o.line, o.outcome, o.message])).toEqual([
      [1, 'added', 'added as “New”'],
      [2, 'already', 'already in Demo; keeps the nickname “Rival” (not “Other name”: change it with the player’s pencil in the list)'],
      [3, 'already', 'already in Demo'],
      [4, 'refused', 'not added: not an account ID, a trackmania.io player link or a display name'],
    ]);
  });

  it('takes display names as the single field does, each looked up and told what it found', () => {
    const lines = parsePlayerLines(['Wirtual', 'Rival Best friend', `${A} Me`, 'nobody_here', 'twins', 'wirtual Again', 'Same'].join('\n'));
    expect(lines.map((l) => [l.line, l.name, l.nickname, l.problem])).toEqual([
      [1, 'Wirtual', null, null], [2, 'Rival', 'Best friend', null], [3, undefined, 'Me', null], [4, 'nobody_here', null, null],
      [5, 'twins', null, null], [6, 'wirtual', 'Again', null], [7, 'Same', null, null],
    ]);
    const resolved = resolveNamedLines(lines, {
      found: [{ name: 'Wirtual', accountId: B }, { name: 'Rival', accountId: C }, { name: 'same', accountId: A }],
      unknown: ['nobody_here'],
      ambiguous: [{ name: 'twins', accountIds: [B, C] }],
      invalid: [],
    });
    expect(resolved.map((l) => [l.line, l.accountId, l.problem])).toEqual([
      [1, B, null],
      [2, C, null],
      [3, A, null],
      [4, null, 'no player is named “nobody_here” on Trackmania (names are matched whole)'],
      [5, null, '“twins” is the display name of 2 accounts: paste the account ID of the one you mean'],
      [6, B, 'the same player as line 1'],
      [7, A, 'the same player as line 3'],
    ]);
    const outcomes = playerLineOutcomes(resolved, { added: [B, C, A], alreadyListed: [], invalid: [], nicknamesKept: [] }, 'Demo');
    expect(outcomes.map((o) => o.message)).toEqual([
      'added', 'added as “Best friend”', 'added as “Me”', 'not added: no player is named “nobody_here” on Trackmania (names are matched whole)',
      'not added: “twins” is the display name of 2 accounts: paste the account ID of the one you mean', 'not added: the same player as line 1',
      'not added: the same player as line 3',
    ]);
    expect(unresolvedNamedLines(lines, 'offline').filter((l) => l.problem === 'offline').map((l) => l.line)).toEqual([1, 2, 4, 5, 6, 7]);
  });
});
