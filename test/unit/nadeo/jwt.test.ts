import { describe, expect, it } from 'vitest';
import { decodeJwtPayload, readJwtTimes } from '../../../src-main/core/nadeo/http/jwt.ts';
import { fakeJwt } from './fixtures.ts';


describe('JWT claims', () => {
  it('reads exp, rat and iat as milliseconds', () => {
    const t = readJwtTimes(fakeJwt({ exp: 1_800_000_000, rat: 1_799_998_200, iat: 1_799_996_400, aud: 'NadeoServices' }));
    expect(t).toEqual({ expMs: 1_800_000_000_000, ratMs: 1_799_998_200_000, iatMs: 1_799_996_400_000 });
  });
  it('decodes base64url payloads (with - and _)', () => {
    const payload = { sub: '??>>~~', exp: 5 };
    const token = `x.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.y`;
    expect(token).toMatch(/[-_]/);
    expect(decodeJwtPayload(token)).toEqual(payload);
  });
  it('returns nothing for tokens it cannot read', () => {
    expect(readJwtTimes('not-a-jwt')).toEqual({ expMs: undefined, ratMs: undefined, iatMs: undefined });
    expect(decodeJwtPayload('a.!!!.b')).toBeUndefined();
    expect(readJwtTimes(fakeJwt({ exp: 'soon' })).expMs).toBeUndefined();
  });
});
