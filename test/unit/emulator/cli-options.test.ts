// `trackwatch emulator` flags turned into emulator options: what each flag generates, and a clear refusal of bad ones.
import { describe, expect, it } from 'vitest';
import { emulatorOptionsFrom } from '../../../src-main/cli/commands/emulator.ts';
import { UserError } from '../../../src-main/cli/errors.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const DEFAULTS = { seed: '1', maps: '24', players: '12', host: '127.0.0.1', port: '0' };
const given = (...names: string[]) => (name: string): boolean => names.includes(name);

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  if (!(error instanceof UserError)) throw new Error(`expected a UserError, got ${String(error)}`);
  return error.message;
}

describe('trackwatch emulator options', () => {
  it('--secret-heavy-maps N: N maps of the generated dataset hide most of their entries behind a secret threshold', async () => {
    const { options } = await emulatorOptionsFrom({ ...DEFAULTS, maps: '12', secretHeavyMaps: '3' }, given('maps'), () => DATA_NOW);
    const { options: plain } = await emulatorOptionsFrom({ ...DEFAULTS, maps: '12' }, given('maps'), () => DATA_NOW);
    const thresholds = (o: typeof options): number => o.dataset.maps.filter((m) => m.secretThreshold !== undefined).length;
    expect(thresholds(options)).toBeGreaterThanOrEqual(3);
    expect(thresholds(options)).toBeGreaterThan(thresholds(plain));
  });

  it('--secret-heavy-maps: refused when not a whole number, above what the maps allow, or with --dataset', async () => {
    expect(await refusal(emulatorOptionsFrom({ ...DEFAULTS, secretHeavyMaps: 'many' }, given()))).toBe(
      '--secret-heavy-maps must be a whole number at least 0 and at most 24; got "many".',
    );
    // Every kind of map can have one (the threshold is a time, map-page.md): four maps, four thresholds.
    const { options: four } = await emulatorOptionsFrom({ ...DEFAULTS, maps: '4', players: '6', secretHeavyMaps: '4' }, given('maps', 'players'));
    expect(four.dataset.maps.every((m) => m.secretThreshold !== undefined)).toBe(true);
    expect(await refusal(emulatorOptionsFrom({ ...DEFAULTS, maps: '4', players: '2', secretHeavyMaps: '1' }, given('maps', 'players')))).toMatch(
      /^--secret-heavy-maps is 1 but only 0 maps can have many secret entries .*ask for fewer, or for more maps or players\.$/,
    );
    expect(await refusal(emulatorOptionsFrom({ ...DEFAULTS, dataset: 'x.json', secretHeavyMaps: '1' }, given()))).toBe('--seed, --maps, --players, --secret-heavy-maps and --hostile-names only apply when generating; leave them out with --dataset.');
  });

  it('issue 11: --generate serves a season of the game by default ("Fall 2026 - 01", club tags), --hostile-names the test names', async () => {
    const { options, summary } = await emulatorOptionsFrom({ ...DEFAULTS, generate: true }, given());
    // The season running by the real clock.
    expect(options.dataset.maps[0]?.name).toMatch(/^(Winter|Spring|Summer|Fall) 20\d\d - 01$/);
    expect(summary).toContain('a season of the game');
    const names = options.dataset.maps.map((m) => m.name).join('\n');
    expect(names).not.toContain('=HYPERLINK');
    const { options: hostile, summary: hostileSummary } = await emulatorOptionsFrom({ ...DEFAULTS, generate: true, hostileNames: true }, given());
    expect(hostile.dataset.maps.map((m) => m.name)).toContain('=HYPERLINK("http://x","y")');
    expect(hostileSummary).toContain('hostile names');
    expect(await refusal(emulatorOptionsFrom({ ...DEFAULTS, dataset: 'x.json', hostileNames: true }, given()))).toContain('--hostile-names only apply when generating; leave them out with --dataset.');
  });
});
