// The HTTP bridge on loopback: the token, the Host and Origin checks, commands and the event stream.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Handlers } from '../../../src-main/contract/commands.ts';
import { startBridge } from '../../../src-main/bridge/server.ts';
import type { RunningBridge } from '../../../src-main/bridge/server.ts';
import { createEventHub } from '../../../src-main/service/events.ts';
import { RENDERER_CSP } from '../../../src-main/service/security.ts';

const root = mkdtempSync(path.join(tmpdir(), 'tw-bridge-'));
const rendererDir = path.join(root, 'renderer');
mkdirSync(rendererDir, { recursive: true });
writeFileSync(path.join(rendererDir, 'index.html'), '<!doctype html><title>Trackwatch</title>');
writeFileSync(path.join(root, 'secret.txt'), 'not for the web');

const hub = createEventHub();
/** Told when the long command starts, and when its caller's signal aborts. */
const longCommand = { started: Promise.withResolvers<void>(), aborted: Promise.withResolvers<string>() };
const handlers = {
  'watchlists.create': async ({ name }: { name: string }) => ({ name, maps: 0, players: 0, lastSyncAt: null, lastSyncOutcome: null }),
  // Stands for a paged source: it runs until its caller's signal says the request is gone.
  'watchlists.createFromSource': async (_input: unknown, call?: { signal?: AbortSignal }) => {
    longCommand.started.resolve();
    await new Promise<void>((ok) => call?.signal?.addEventListener('abort', () => ok(), { once: true }));
    longCommand.aborted.resolve('aborted');
    return {};
  },
} as unknown as Handlers;
let bridge: RunningBridge;

beforeAll(async () => {
  bridge = await startBridge({ handlers, events: hub, rendererDir, token: 'test-token', keepAliveMs: 50 });
});
afterAll(async () => {
  await bridge.close();
  rmSync(root, { recursive: true, force: true });
});

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Plain node:http, so the test can send any Host and Origin a hostile page might. */
function raw(o: { method?: string; path: string; headers?: Record<string, string>; body?: string }): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: bridge.port, method: o.method ?? 'GET', path: o.path, headers: o.headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end(o.body);
  });
}

const invoke = (body: unknown, headers: Record<string, string> = {}) =>
  raw({ method: 'POST', path: '/api/invoke', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer test-token', ...headers }, body: JSON.stringify(body) });

describe('the bridge', () => {
  it('prints a URL on 127.0.0.1 with the token in the fragment', () => {
    expect(bridge.url).toBe(`http://127.0.0.1:${bridge.port}/#token=test-token`);
  });

  it('serves the window with the CSP, and nothing outside it', async () => {
    const page = await raw({ path: '/' });
    expect(page.status).toBe(200);
    expect(page.headers['content-security-policy']).toBe(RENDERER_CSP);
    expect(page.body).toContain('<title>Trackwatch</title>');
    for (const p of ['/../secret.txt', '/%2e%2e/secret.txt', '/..%5csecret.txt']) {
      const response = await raw({ path: p });
      expect(response.body, p).not.toContain('not for the web');
    }
  });

  it('answers commands with result values', async () => {
    const ok = await invoke({ name: 'watchlists.create', input: { name: ' Winter ' } });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({ ok: true, value: { name: 'Winter' } });
    expect(JSON.parse((await invoke({ name: 'watchlists.create', input: { name: '' } })).body)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(JSON.parse((await invoke({ name: 'process.exit', input: {} })).body)).toMatchObject({ ok: false, error: { code: 'unknown_command' } });
  });

  it('ends the work a command started when its caller hangs up', async () => {
    const req = request({ host: '127.0.0.1', port: bridge.port, method: 'POST', path: '/api/invoke', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer test-token' } });
    req.on('error', () => {});
    req.end(JSON.stringify({ name: 'watchlists.createFromSource', input: { source: 'tmx-pack:1' } }));
    await longCommand.started.promise;
    req.destroy();
    expect(await longCommand.aborted.promise).toBe('aborted');
  });

  it('demands the token for commands and events', async () => {
    expect((await invoke({ name: 'watchlists.create', input: { name: 'x' } }, { Authorization: 'Bearer wrong-token' })).status).toBe(401);
    expect((await invoke({ name: 'watchlists.create', input: { name: 'x' } }, { Authorization: '' })).status).toBe(401);
    expect((await raw({ path: '/api/events' })).status).toBe(401);
  });

  it('refuses other Host headers (DNS rebinding) and other origins, even with the token', async () => {
    const body = { name: 'watchlists.create', input: { name: 'x' } };
    expect((await invoke(body, { Host: `evil.example:${bridge.port}` })).status).toBe(421);
    expect((await raw({ path: '/', headers: { Host: 'evil.example' } })).status).toBe(421);
    expect((await invoke(body, { Origin: 'https://evil.example' })).status).toBe(403);
    expect((await invoke(body, { Origin: `http://127.0.0.1:${bridge.port + 1}` })).status).toBe(403);
    expect((await invoke(body, { 'Sec-Fetch-Site': 'cross-site' })).status).toBe(403);
    expect((await invoke(body, { Origin: `http://localhost:${bridge.port}`, Host: `localhost:${bridge.port}` })).status).toBe(200);
  });

  it('takes only JSON posts of a sane size', async () => {
    const auth = { Authorization: 'Bearer test-token' };
    expect((await raw({ method: 'POST', path: '/api/invoke', headers: { ...auth, 'Content-Type': 'text/plain' }, body: '{}' })).status).toBe(415);
    expect((await raw({ method: 'POST', path: '/api/invoke', headers: { ...auth, 'Content-Type': 'application/json' }, body: '{nope' })).status).toBe(400);
    expect((await raw({ method: 'GET', path: '/api/invoke', headers: auth })).status).toBe(405);
    const huge = JSON.stringify({ name: 'watchlists.create', input: { name: 'x'.repeat(5 * 1024 * 1024) } });
    expect((await raw({ method: 'POST', path: '/api/invoke', headers: { ...auth, 'Content-Type': 'application/json' }, body: huge })).status).toBe(413);
  });

  it('streams events as SSE to a token holder', async () => {
    const controller = new AbortController();
    const response = await fetch(`${bridge.origin}/api/events`, { headers: { Authorization: 'Bearer test-token' }, signal: controller.signal });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    const status = { state: 'offline' as const, message: 'no route', checkedAt: '2026-11-21T00:00:00.000Z' };
    let text = '';
    // The stream subscribes before it sends its headers: an event emitted now reaches it.
    hub.emit('status.changed', status);
    while (!text.includes('event: status.changed')) text += (await reader.read()).value ?? '';
    while (!text.includes('\n\n', text.indexOf('event: status.changed'))) text += (await reader.read()).value ?? '';
    const block = text.slice(text.indexOf('event: status.changed')).split('\n\n')[0]!;
    expect(JSON.parse(block.split('\ndata: ')[1]!)).toEqual(status);
    controller.abort();
  });
});
