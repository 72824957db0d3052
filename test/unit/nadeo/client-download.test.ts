import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createNadeoClient, type NadeoClient } from '../../../src-main/core/nadeo/index.ts';
import { NadeoError } from '../../../src-main/core/nadeo/http/errors.ts';
import { redirectTarget } from '../../../src-main/core/nadeo/http/download.ts';
import { startLocalServer, sendJson, type LocalServer } from './local-server.ts';
import { fastOptions } from './fixtures.ts';

let server: LocalServer | undefined;
let other: LocalServer | undefined;
let client: NadeoClient | undefined;
let dir = '';
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'tw-dl-'));
});
afterEach(async () => {
  await client?.close();
  await server?.close();
  await other?.close();
  client = server = other = undefined;
  await rm(dir, { recursive: true, force: true });
});

const payload = Buffer.from('GBX replay bytes '.repeat(300));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe('download', () => {
  it('streams to a temp file, renames into place and returns the sha256', async () => {
    server = await startLocalServer((_req, res) => {
      res.writeHead(200, { 'content-length': String(payload.length) });
      res.end(payload);
    });
    client = createNadeoClient(fastOptions(server.url));
    const dest = join(dir, 'sub', 'r.replay.gbx');
    const result = await client.download(`${server.url}/storageObjects/abc`, dest);
    expect(result).toEqual({ state: 'downloaded', bytes: payload.length, sha256: sha(payload) });
    expect(await readFile(dest)).toEqual(payload);
    expect(await readdir(join(dir, 'sub'))).toEqual(['r.replay.gbx']);
  });

  it('a 403 is a hidden replay: no error, no retry, no file', async () => {
    server = await startLocalServer((_req, res) => sendJson(res, 403, { code: 'C-AA-00-19', message: 'Forbidden.' }));
    client = createNadeoClient(fastOptions(server.url));
    expect(await client.download(`${server.url}/mapRecords/x/replay`, join(dir, 'h.gbx'))).toEqual({ state: 'hidden' });
    expect(server.requests).toHaveLength(1);
    expect(await readdir(dir)).toEqual([]);
  });

  it('retries a body cut short and leaves no temp file behind', async () => {
    let n = 0;
    server = await startLocalServer((_req, res, raw) => {
      res.writeHead(200, { 'content-length': String(payload.length) });
      if (++n === 1) {
        res.write(payload.subarray(0, 100), () => raw.socket.destroy());
        return;
      }
      res.end(payload);
    });
    client = createNadeoClient(fastOptions(server.url));
    const result = await client.download(`${server.url}/f`, join(dir, 'r.gbx'));
    expect(result).toMatchObject({ state: 'downloaded', sha256: sha(payload) });
    expect(n).toBe(2);
    expect(await readdir(dir)).toEqual(['r.gbx']);
  });

  it('refuses a declared size over the cap, and stops a stream that grows past it', async () => {
    server = await startLocalServer((req, res) => {
      if (req.url === '/declared') {
        res.writeHead(200, { 'content-length': String(payload.length) });
        return res.end(payload);
      }
      res.writeHead(200); // chunked, no length: only counting can stop it
      res.write(payload);
      res.end(payload);
    });
    client = createNadeoClient(fastOptions(server.url));
    await expect(client.download(`${server.url}/declared`, join(dir, 'a'), { maxBytes: 1000 })).rejects.toMatchObject({ code: 'TOO_LARGE' });
    await expect(client.download(`${server.url}/stream`, join(dir, 'b'), { maxBytes: payload.length + 10 })).rejects.toMatchObject({ code: 'TOO_LARGE' });
    expect(await readdir(dir)).toEqual([]);
    expect(server.requests).toHaveLength(2); // not retried
  });

  it('accepts only http(s) URLs without credentials', async () => {
    client = createNadeoClient(fastOptions('http://127.0.0.1:9'));
    for (const url of ['file:///etc/passwd', 'ftp://x/y', 'javascript:alert(1)', 'http://user:pw@127.0.0.1/x', 'not a url']) {
      const error = await client.download(url, join(dir, 'x')).catch((e: unknown) => e);
      expect(error, url).toBeInstanceOf(NadeoError);
      expect((error as NadeoError).code, url).toBe('BAD_URL');
    }
  });

  it('a redirect resolves relative addresses, and never leads to another scheme or from https down to http', () => {
    const from = new URL('https://prod.trackmania.core.nadeo.online/maps/x/file');
    expect(redirectTarget('/storageObjects/abc', from).href).toBe('https://prod.trackmania.core.nadeo.online/storageObjects/abc');
    expect(redirectTarget('https://core.trackmania.nadeo.live/storageObjects/abc', from).host).toBe('core.trackmania.nadeo.live');
    expect(() => redirectTarget('http://core.trackmania.nadeo.live/storageObjects/abc', from)).toThrow(/from https to http:/);
    expect(() => redirectTarget('ftp://example.com/x', from)).toThrow(/only http and https/);
    expect(redirectTarget('http://127.0.0.1:9/x', new URL('http://127.0.0.1:8/y')).port).toBe('9');
  });

  it('a 404 is NOT_FOUND, not retried', async () => {
    server = await startLocalServer((_req, res) => res.writeHead(404).end('Not Found'));
    client = createNadeoClient(fastOptions(server.url));
    await expect(client.download(`${server.url}/gone`, join(dir, 'x'))).rejects.toMatchObject({ code: 'NOT_FOUND', status: 404 });
    expect(server.requests).toHaveLength(1);
  });

  it('follows a redirect to another host without the token', async () => {
    other = await startLocalServer((_req, res) => {
      res.writeHead(200, { 'content-length': String(payload.length) });
      res.end(payload);
    });
    server = await startLocalServer((req, res) => {
      if (req.url.startsWith('/v2/authentication')) return sendJson(res, 200, { accessToken: 'a.b.c', refreshToken: 'd.e.f' });
      res.writeHead(302, { location: `${other!.url}/blob` }).end();
    });
    client = createNadeoClient({ ...fastOptions(server.url), credentials: { login: 'l', password: 'p' } });
    const result = await client.download(`${server.url}/mapRecords/x/replay`, join(dir, 'r.gbx'));
    expect(result).toMatchObject({ state: 'downloaded', sha256: sha(payload) });
    expect(server.requests.find((r) => r.url === '/mapRecords/x/replay')!.headers['authorization']).toBe('nadeo_v1 t=a.b.c');
    expect(other.requests[0]!.headers['authorization']).toBeUndefined();
  });
});
