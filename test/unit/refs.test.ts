import { describe, expect, it } from 'vitest';
import { parseMapRef, parseMapRefs } from '../../src-main/core/refs.ts';

const UID = 'PrometheusByXertroVFtArcher';
const ID = '3a7b7f0e-53c4-4b7a-9d2c-0e2f9c1b7d11';

describe('parseMapRef', () => {
  it('reads a bare UID and a bare map ID', () => {
    expect(parseMapRef(UID)).toEqual({ kind: 'uid', uid: UID, input: UID });
    expect(parseMapRef(ID.toUpperCase())).toMatchObject({ kind: 'id', id: ID });
  });
  it.each([
    `https://trackmania.io/#/leaderboard/${UID}`,
    `https://trackmania.io/leaderboard/${UID}`,
    `trackmania.io/#/leaderboard/${UID}?utm=x`,
    `https://trackmania.exchange/mapshow/${UID}`,
    `https://trackmania.exchange/maps?uid=${UID}`,
  ])('finds the UID in %s', (link) => {
    expect(parseMapRef(link)).toMatchObject({ kind: 'uid', uid: UID });
  });
  it('explains a TMX link that holds only the exchange number', () => {
    const ref = parseMapRef('https://trackmania.exchange/mapshow/212345');
    expect(ref.kind).toBe('invalid');
    expect(ref.kind === 'invalid' && ref.reason).toMatch(/exchange's own map number/);
  });
  it('refuses other hosts and junk with a reason', () => {
    expect(parseMapRef(`https://evil.example/leaderboard/${UID}`)).toMatchObject({ kind: 'invalid' });
    expect(parseMapRef('hello world!')).toMatchObject({ kind: 'invalid' });
    expect(parseMapRef('12345')).toMatchObject({ kind: 'invalid' });
  });
  it('splits pasted text on whitespace and commas', () => {
    const refs = parseMapRefs(`${UID}, ${ID}\nnope`);
    expect(refs.map((r) => r.kind)).toEqual(['uid', 'id', 'invalid']);
  });
});
