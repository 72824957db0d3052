// A paste is read item by item (issue 9 §7): one bad item is refused alone, with its reason, and what is echoed back
// of it can never drive a terminal.
import { describe, expect, it } from 'vitest';
import { parseMapRef, parseMapRefs } from '../../src-main/core/refs.ts';

const UID = 'PrometheusByXertroVFtArcher';
const OTHER = 'Other0Uid0Of0TwentyFour00';

describe('a paste with one bad item', () => {
  it('a malformed % escape in one trackmania.io link refuses that link only', () => {
    const refs = parseMapRefs([`https://trackmania.io/#/leaderboard/${UID}`, 'https://trackmania.io/#/leaderboard/%E0%A4%A', OTHER]);
    expect(refs.map((r) => r.kind)).toEqual(['uid', 'invalid', 'uid']);
    expect(refs[1]).toMatchObject({ kind: 'invalid', reason: expect.stringMatching(/malformed "%" escape/) });
  });

  it('a link whose UID is readable beside a malformed escape still gives its UID', () => {
    expect(parseMapRef(`https://trackmania.io/%zz/leaderboard/${UID}`)).toMatchObject({ kind: 'uid', uid: UID });
  });

  it('echoes control characters as U+FFFD: an escape sequence in a paste cannot reach the terminal', () => {
    const ref = parseMapRef('\u001b]0;owned\u0007\u001b[2Jx');
    expect(ref.kind).toBe('invalid');
    expect(ref.input).toBe('\uFFFD]0;owned\uFFFD\uFFFD[2Jx');
    expect([...ref.input].filter((c) => c.charCodeAt(0) < 0x20 || (c.charCodeAt(0) >= 0x7f && c.charCodeAt(0) <= 0x9f))).toEqual([]);
  });
});
