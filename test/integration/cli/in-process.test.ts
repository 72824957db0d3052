// The command run in this process (test/helpers/cli.ts `cli`) leaves nothing behind: what a run opens (the data
// folder's database, listeners for the stop signals, timers, write notes) is closed when it ends, so the next run,
// and the next test file in the shared worker (vitest.config.ts, isolate: false), starts from the same process.
import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { generateDataset } from '../../../src-main/emulator/index.ts';
import { Output } from '../../../src-main/cli/output.ts';
import type { CliIo } from '../../../src-main/cli/io.ts';
import { cli, useEmulatorAndDataDir } from '../../helpers/cli.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

/** The process events a command may listen to; each count must come back to what it was. */
const EVENTS = ['SIGINT', 'SIGTERM', 'SIGHUP', 'exit', 'beforeExit', 'warning', 'uncaughtException', 'unhandledRejection'] as const;

/** Files of `dir` this process holds open (the database, its WAL, a lock), from /proc on Linux. */
function filesOpenIn(dir: string): string[] {
  const fds = '/proc/self/fd';
  if (!existsSync(fds)) return [];
  return readdirSync(fds).flatMap((fd) => {
    try {
      const target = readlinkSync(join(fds, fd));
      return target.startsWith(dir) ? [target] : [];
    } catch {
      return []; // closed while listed
    }
  });
}

/** What a run must leave as it found it. Sockets are left out: the emulator serving the runs lives in this process. */
function processState(dir: string): { listeners: Record<string, number>; resources: Record<string, number>; open: string[] } {
  const resources: Record<string, number> = {};
  for (const kind of process.getActiveResourcesInfo()) {
    if (kind === 'TCPSocketWrap' || kind === 'TCPServerWrap') continue;
    resources[kind] = (resources[kind] ?? 0) + 1;
  }
  return { listeners: Object.fromEntries(EVENTS.map((e) => [e, process.listenerCount(e)])), resources, open: filesOpenIn(dir) };
}

describe('the command in this process', () => {
  const dataset = generateDataset({ now: DATA_NOW, seed: 11, maps: 4, players: 3 });
  const accounts = [...new Set(dataset.records.map((r) => r.accountId))];
  const setup = useEmulatorAndDataDir(dataset, ['--max-rps', '500']);

  it('runs the same commands twice with the same answers, and leaves no listener, timer or open file behind', async () => {
    const run = async (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> => cli(setup.at(...args));
    expect((await run(['maps', 'add', ...dataset.maps.map((m) => m.mapUid)])).code).toBe(0);
    expect((await run(['players', 'add', ...accounts])).code).toBe(0);
    // One full round first: what loads once per process (modules, the Gbx reader, the exit hook that removes this
    // process's write notes) is not a leak.
    const round = async (): Promise<string[]> => {
      const answers: string[] = [];
      const synced = await run(['sync']);
      expect(synced.code, synced.stderr).toBe(0);
      for (const args of [['compare'], ['records', '--json'], ['export', 'csv', '--out', join(setup.dir(), 'out.csv'), '--force'], ['sync', '--list', 'Nope']]) {
        const r = await run(args);
        answers.push(`${r.code}\n${r.stdout}\n${r.stderr}`);
      }
      return answers;
    };
    const first = await round();
    const before = processState(setup.dir());
    const second = await round();
    expect(processState(setup.dir())).toEqual(before);
    const third = await round();
    expect(processState(setup.dir())).toEqual(before);
    expect(second).toEqual(first);
    expect(third).toEqual(first);
    // Nothing stays open in the data folder, and no write note of this process is left in it.
    expect(before.open).toEqual([]);
    expect(existsSync(join(setup.dir(), 'tmp', 'in-progress')) ? readdirSync(join(setup.dir(), 'tmp', 'in-progress')) : []).toEqual([]);
  });

  it('gives each run its own environment and streams: a flag read from one run\'s environment is not seen by the next', async () => {
    const given = await cli(['--data-dir', setup.dir(), 'lists'], { TRACKWATCH_MAX_RPS: '0' });
    expect(given.code).toBe(1);
    expect(given.stderr).toContain('TRACKWATCH_MAX_RPS');
    const next = await cli(['--data-dir', setup.dir(), 'lists']);
    expect(next.code, next.stderr).toBe(0);
    expect(next.stderr).toBe('');
    expect(process.env.TRACKWATCH_MAX_RPS).toBeUndefined();
  });

  it('writes help and usage errors to the run\'s streams, never to this process\'s', async () => {
    const written = vi.spyOn(process.stdout, 'write');
    const erred = vi.spyOn(process.stderr, 'write');
    try {
      const help = await cli(['--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/^Usage: trackwatch \[options\] \[command\]\n/);
      const unknown = await cli(['no-such-command']);
      expect(unknown.code).toBe(1);
      expect(unknown.stderr).toMatch(/^error: unknown command 'no-such-command'\n/);
      // Whatever else this worker writes meanwhile (a warning), none of it is the command's.
      const here = [...written.mock.calls, ...erred.mock.calls].map(([chunk]) => String(chunk)).join('');
      expect(here).not.toContain('Usage: trackwatch');
      expect(here).not.toContain('no-such-command');
    } finally {
      written.mockRestore();
      erred.mockRestore();
    }
  });
});

describe('a run\'s output', () => {
  const ioWith = (stdout: { isTTY?: boolean }, env: NodeJS.ProcessEnv): CliIo => ({ stdout, env } as unknown as CliIo);

  it('is coloured only on a terminal without NO_COLOR, whatever this process\'s own streams are', () => {
    expect(new Output(ioWith({ isTTY: true }, {})).medal(4)).toContain('\u001b[');
    expect(new Output(ioWith({ isTTY: true }, { NO_COLOR: '1' })).medal(4)).toBe('author');
    expect(new Output(ioWith({}, {})).medal(4)).toBe('author');
  });
});
