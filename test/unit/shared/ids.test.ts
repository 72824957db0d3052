// The one definition of what Nadeo's IDs look like, which the store, the API client, the command line and the window
// all check with.
import { describe, expect, it } from 'vitest';
import { isMapUid, isSendableId, isUuid } from '../../../src-main/shared/ids.ts';

describe('ID checks', () => {
  it('accepts UUIDs and alphanumeric UIDs only', () => {
    expect(isUuid('8e2ed4a2-1a55-4a26-9db4-6b2b7e9a4f1b')).toBe(true);
    expect(isUuid('8E2ED4A2-1A55-4A26-9DB4-6B2B7E9A4F1B')).toBe(true);
    expect(isUuid('8e2ed4a2-1a55-4a26-9db4-6b2b7e9a4f1')).toBe(false);
    expect(isUuid('not-a-uuid')).toBe(false);
    expect(isMapUid('ZNE7Z4Gu0rBFXgSHO6yEjXTrS6i')).toBe(true);
    expect(isMapUid('a,b')).toBe(false);
    expect(isMapUid('a&b=c')).toBe(false);
    expect(isMapUid('')).toBe(false);
  });

  it('a map UID is 18 to 32 letters, digits and underscores, not all digits', () => {
    expect(isMapUid('a'.repeat(18))).toBe(true);
    expect(isMapUid('A_b'.repeat(10) + 'cd')).toBe(true);
    expect(isMapUid('a'.repeat(17))).toBe(false);
    expect(isMapUid('a'.repeat(33))).toBe(false);
    expect(isMapUid('1'.repeat(24))).toBe(false);
    expect(isMapUid('ZNE7Z4Gu0rBFX-gSHO6yEjXTrS6')).toBe(false);
    expect(isMapUid('8e2ed4a2-1a55-4a26-9db4-6b2b7e9a4f1b')).toBe(false);
  });

  it('what the API client sends unescaped: letters, digits, underscores and hyphens, 1 to 64, nothing that changes a request', () => {
    expect(isSendableId('ZNE7Z4Gu0rBFXgSHO6yEjXTrS6i')).toBe(true);
    expect(isSendableId('Personal_Best')).toBe(true);
    expect(isSendableId('3987d489-03ae-4645-9903-8f7679c3a418')).toBe(true);
    expect(isSendableId('a'.repeat(65))).toBe(false);
    for (const bad of ['', 'a,b', 'a&b=c', 'a b', 'a/b', 'a?b', 'a%20b']) expect(isSendableId(bad), bad).toBe(false);
  });
});
