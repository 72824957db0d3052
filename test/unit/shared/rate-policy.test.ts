import { describe, expect, it } from 'vitest';
import { createNadeoClient, createExchangeClient, createLiveClient, LimiterPool, REAL_BASE_URL } from '../../../src-main/core/nadeo/index.ts';
import { MaxRps } from '../../../src-main/contract/schemas.ts';
import {
  DEFAULT_MAX_RPS,
  EMULATOR_MAX_RPS,
  isAllowedRate,
  keptRate,
  MIN_RPS,
  rateRange,
  rateRangeWords,
  REAL_SERVICE_MAX_RPS,
} from '../../../src-main/shared/rate-policy.ts';

describe('the rate policy', () => {
  it('one ceiling against the real services, the widest range against an emulator, 1 by default', () => {
    expect(REAL_SERVICE_MAX_RPS).toBe(2);
    expect(DEFAULT_MAX_RPS).toBe(1);
    expect(rateRange(true)).toEqual({ min: 0.01, max: 2 });
    expect(rateRange(false)).toEqual({ min: 0.01, max: 10_000 });
    expect(isAllowedRate(2, true)).toBe(true);
    expect(isAllowedRate(2.01, true)).toBe(false);
    expect(isAllowedRate(10_000, false)).toBe(true);
    expect(isAllowedRate(MIN_RPS / 2, false)).toBe(false);
    expect(isAllowedRate(Number.NaN, false)).toBe(false);
  });

  it('says the range with its reason, the same words everywhere', () => {
    expect(rateRangeWords(true)).toBe('from 0.01 to 2 against the real services (2 is the ceiling Nadeo staff gave; faster can get your account or IP banned)');
    expect(rateRangeWords(false)).toBe('from 0.01 to 10000');
  });

  it('keeps a saved rate within the range, and nonsense falls back to the default', () => {
    expect(keptRate(undefined, true)).toBe(DEFAULT_MAX_RPS);
    expect(keptRate('fast', true)).toBe(DEFAULT_MAX_RPS);
    expect(keptRate(-1, false)).toBe(DEFAULT_MAX_RPS);
    expect(keptRate(0.5, true)).toBe(0.5);
    // An older version let 50 be saved against the real service: it is slowed to the ceiling.
    expect(keptRate(50, true)).toBe(REAL_SERVICE_MAX_RPS);
    expect(keptRate(500, false)).toBe(500);
    expect(keptRate(1e9, false)).toBe(EMULATOR_MAX_RPS);
  });

  it('the contract and every client hold the same ceiling', async () => {
    expect(MaxRps.safeParse(REAL_SERVICE_MAX_RPS).success).toBe(true);
    expect(MaxRps.safeParse(MIN_RPS).success).toBe(true);
    const above = MaxRps.safeParse(2.1);
    expect(above.success).toBe(false);
    expect(above.error?.issues[0]?.message).toBe(`The request rate must be a number of requests per second ${rateRangeWords(true)}.`);
    const real = { appVersion: '0.1.0', contact: 'player: T; contact: t@example.com', maxRps: 2.5 };
    const refusal = `maxRps must be a number ${rateRangeWords(true)}, got 2.5.`;
    expect(() => createNadeoClient({ ...real, baseUrl: REAL_BASE_URL })).toThrow(refusal);
    expect(() => createLiveClient({ ...real, coreBaseUrl: REAL_BASE_URL })).toThrow(refusal);
    expect(() => createExchangeClient({ ...real })).toThrow(refusal);
    // Against an emulator, the widest range; the limiters themselves take nothing outside it.
    await createNadeoClient({ appVersion: '0.1.0', baseUrl: 'http://127.0.0.1:9', maxRps: 2.5 }).close();
    expect(() => new LimiterPool({ maxRps: EMULATOR_MAX_RPS * 2 })).toThrow(/maxRps must be a number from 0.01 to 10000/);
  });
});
