// Dates on the command line (issue 17 §1.6): only ISO 8601, and a day that does not exist is refused, never shifted.
import { describe, expect, it } from 'vitest';
import { checkDateFlags } from '../../../src-main/cli/dates.ts';
import { UserError } from '../../../src-main/cli/errors.ts';

function refusal(options: Record<string, unknown>): string | undefined {
  try {
    checkDateFlags(options);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(UserError);
    return (error as Error).message;
  }
}

describe('date flags', () => {
  it.each(['Feb 30 2024', '0', '1', 'March 1, 2024', '2024/02/01', 'yesterday', '99999-01-01'])('refuses %s, which is not written as ISO 8601', (value) => {
    expect(refusal({ since: value })).toBe(`--since "${value}" is not a date; use e.g. 2026-05-01 or 2026-05-01T18:00:00Z.`);
  });

  it('refuses a day that does not exist, saying why', () => {
    expect(refusal({ until: '2024-02-30' })).toBe('--until "2024-02-30" is not a date: February 2024 has 29 days; use e.g. 2026-05-01 or 2026-05-01T18:00:00Z.');
  });

  it.each(['2024-02-29', '2026-05-01T18:00:00Z', '2026-05-01 18:00', '2026-05-01T18:00:00.123+02:00'])('takes %s', (value) => {
    expect(refusal({ since: value })).toBeUndefined();
  });
});
