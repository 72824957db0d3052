// `trackwatch serve` as a process: it prints a URL with a token, serves the window and the contract, stops cleanly.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT, ensureRendererBuilt } from '../../helpers/browser.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'tw-serve-'));
const program = `
  import { Command } from 'commander';
  import { addGlobalOptions } from './src-main/cli/context.ts';
  import { registerServeCommand } from './src-main/cli/commands/serve.ts';
  import { processIo } from './src-main/cli/io.ts';
  import { Output } from './src-main/cli/output.ts';
  const program = addGlobalOptions(new Command('trackwatch'));
  registerServeCommand(program, new Output(processIo()));
  await program.parseAsync(process.argv);
`;

let child: ReturnType<typeof spawn>;
let url = '';
let output = '';

beforeAll(async () => {
  ensureRendererBuilt();
  child = spawn(process.execPath, ['--input-type=module', '-e', program, 'trackwatch', '--data-dir', dataDir, 'serve', '--port', '0'], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  url = await new Promise<string>((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      const match = /(http:\/\/127\.0\.0\.1:\d+\/#token=[\w-]+)/.exec(output);
      if (match) resolve(match[1]!);
    });
    child.on('exit', () => reject(new Error(`serve exited: ${output}`)));
  });
}, 60_000);

afterAll(() => {
  if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

describe('trackwatch serve', () => {
  it('prints a loopback URL whose token opens the API, and serves the window', async () => {
    const { origin, hash } = new URL(url);
    const token = hash.replace('#token=', '');
    expect(token.length).toBeGreaterThanOrEqual(40);
    const page = await fetch(`${origin}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const invoke = (auth: string) =>
      fetch(`${origin}/api/invoke`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: auth }, body: JSON.stringify({ name: 'app.info', input: {} }) });
    expect((await invoke('Bearer nope')).status).toBe(401);
    const info = (await (await invoke(`Bearer ${token}`)).json()) as { ok: boolean; value: { shell: string; setup: string; dataDir: string } };
    expect(info).toMatchObject({ ok: true, value: { shell: 'browser', setup: 'none', dataDir } });
  });

  it('stops on SIGTERM', async () => {
    const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(output).toContain('Stopping');
  });
});
