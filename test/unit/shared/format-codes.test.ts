// The names the issue showed with leftovers, stripped by the one shared stripFormatting.
import { describe, expect, it } from 'vitest';
import { stripFormatting } from '../../../src-main/shared/format.ts';

describe('stripFormatting leaves no code behind', () => {
  it.each([
    ['$f00Red$z Baron', 'Red Baron'],
    ['$f80SummerIce948', 'SummerIce948'],
    ['$F80Upper hex', 'Upper hex'],
    ['$0fTwo-digit colour', 'Two-digit colour'],
    ['$aOne-digit colour', 'One-digit colour'],
    ['$s$0f0$oGreen', 'Green'],
    // An unknown code (here `$ `) goes with its character, as the game drops it.
    ['$$5 and $$$ a lone dollar $', '$5 and $a lone dollar '],
    ['$<$f00scoped$> text', 'scoped text'],
    ['$h[https://x]link$h and $p[x]player$p', 'link and player'],
    ['$ispace$ after', 'spaceafter'],
  ])('%s → %s', (name, shown) => expect(stripFormatting(name)).toBe(shown));
});
