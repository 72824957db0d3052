// `trackwatch emulator` as a user runs it: a real process, its first line, a request, a clean stop.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseDataset } from '../../../src-main/emulator/index.ts';
import { get } from './support.ts';

const BIN = join(import.meta.dirname, '../../../bin/trackwatch.js');

function spawnCli(args: string[]): ChildProcessWithoutNullStreams {
  // process.execPath is the Node 24 running the tests.
  return spawn(process.execPath, [BIN, 'emulator', ...args], { stdio: 'pipe' });
}

function firstLine(child: ChildProcessWithoutNullStreams): Promise<string> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (line) => {
      lines.close();
      resolve(line);
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before printing a line`)));
  });
}

function exit(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; stderr: string }> {
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code, stderr })));
}

let dir = '';
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tw-emulator-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('trackwatch emulator', () => {
  it('cli: the first line is "listening on http://127.0.0.1:PORT"; it serves, writes the dataset and stops cleanly on SIGTERM', async () => {
    const file = join(dir, 'written.json');
    const child = spawnCli(['--generate', '--seed', '4', '--maps', '6', '--players', '3', '--write-dataset', file, '--auth', 'me:secret']);
    const done = exit(child);
    const line = await firstLine(child);
    expect(line).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    const url = line.slice('listening on '.length);
    const dataset = parseDataset(JSON.parse(await readFile(file, 'utf8')));
    expect(dataset.maps).toHaveLength(6);
    // Issue 11: --generate serves a season of the game unless --hostile-names asks for the test names.
    // The season running by the real clock.
    expect(dataset.maps[0]?.name).toMatch(/^(Winter|Spring|Summer|Fall) 20\d\d - 01$/);
    expect((await get(`${url}/maps/?mapIdList=${dataset.maps[0]?.mapId}`)).status).toBe(401);
    child.kill('SIGTERM');
    expect((await done).code).toBe(0);
  });

  it('cli: --hostile-names and --secret-heavy-maps shape the generated dataset; the second line says which names were made', async () => {
    const file = join(dir, 'hostile.json');
    const child = spawnCli(['--generate', '--seed', '4', '--maps', '8', '--players', '6', '--hostile-names', '--secret-heavy-maps', '3', '--write-dataset', file]);
    const done = exit(child);
    const lines = createInterface({ input: child.stdout });
    const [first, second] = await new Promise<string[]>((resolve) => {
      const seen: string[] = [];
      lines.on('line', (line) => {
        seen.push(line);
        if (seen.length === 2) {
          lines.close();
          resolve(seen);
        }
      });
    });
    expect(first).toMatch(/^listening on /);
    expect(second).toMatch(/^generated dataset \(seed 4, hostile names\): 8 maps, /);
    const dataset = parseDataset(JSON.parse(await readFile(file, 'utf8')));
    expect(dataset.maps.map((m) => m.name)).toContain('=HYPERLINK("http://x","y")');
    expect(dataset.maps.filter((m) => m.secretThreshold !== undefined).length).toBeGreaterThanOrEqual(3);
    child.kill('SIGTERM');
    expect((await done).code).toBe(0);
  });

  it('cli: serves a dataset file', async () => {
    const file = join(dir, 'written.json');
    const dataset = parseDataset(JSON.parse(await readFile(file, 'utf8')));
    const child = spawnCli(['--dataset', file]);
    const done = exit(child);
    const url = (await firstLine(child)).slice('listening on '.length);
    const reply = await get(`${url}/maps/?mapUidList=${dataset.maps.map((m) => m.mapUid).join(',')}`);
    expect(reply.json<unknown[]>()).toHaveLength(6);
    child.kill('SIGINT');
    expect((await done).code).toBe(0);
  });

  it('cli: bad options are one clear line on stderr and exit code 1 (fail-rate outside 0..1, invalid dataset, missing file)', async () => {
    const bad = join(dir, 'bad.json');
    await writeFile(bad, JSON.stringify({ maps: [], records: [], displayNames: { 'not-a-uuid': 'x' } }));
    const [failRate, invalid, missing, accountAlone, accountNotId] = await Promise.all([
      exit(spawnCli(['--fail-rate', '1.5'])),
      exit(spawnCli(['--dataset', bad])),
      exit(spawnCli(['--dataset', join(dir, 'nope.json')])),
      exit(spawnCli(['--auth-account', '00000000-0000-4000-8000-000000000001'])),
      exit(spawnCli(['--auth', 'me:pw', '--auth-account', 'nope'])),
    ]);
    expect(accountAlone).toEqual({ code: 1, stderr: 'trackwatch: --auth-account names the account of the --auth login: give --auth too.\n' });
    expect(accountNotId).toEqual({ code: 1, stderr: 'trackwatch: --auth-account must be an account ID (a UUID), got "nope".\n' });
    expect(failRate.code).toBe(1);
    expect(failRate.stderr).toMatch(/^trackwatch: --fail-rate must be a number at least 0 and at most 1; got "1\.5"\.\n$/);
    expect(invalid.code).toBe(1);
    expect(invalid.stderr).toContain('displayNames.not-a-uuid');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read the dataset file');
  });
});
