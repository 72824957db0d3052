import { afterEach, describe, expect, it } from 'vitest';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, generateDataset, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { AuthError, createNadeoClient, type NadeoClient } from '../../../src-main/core/nadeo/index.ts';
import { testClientOptions } from './helpers.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const credentials = { login: 'svc-trackwatch', password: 'hunter2-but-longer' };
const dataset = generateDataset({ now: DATA_NOW, seed: 5, maps: 6, players: 5 });
let emu: RunningEmulator | undefined;
let client: NadeoClient | undefined;
afterEach(async () => {
  await client?.close();
  await emu?.close();
  client = emu = undefined;
});

const LOGIN = 'POST /v2/authentication/token/basic';
const REFRESH = 'POST /v2/authentication/token/refresh';

describe('auth against the emulator', () => {
  it('logs in once for concurrent calls; every API call and same-origin download is authorised', async () => {
    emu = await startEmulator({ dataset, auth: credentials });
    client = createNadeoClient(testClientOptions(emu.url, { credentials }));
    const uids = dataset.maps.map((m) => m.mapUid);
    const results = await Promise.all(uids.map((u) => client!.getMapsByUid([u])));
    expect(results.every((r) => r.maps.length === 1)).toBe(true);
    const { records } = await client.getRecords(results[0]!.maps[0]!, [...new Set(dataset.records.map((r) => r.accountId))]);
    const dir = await mkdtemp(join(tmpdir(), 'tw-auth-'));
    try {
      const visible = records.find((r) => !r.hidden)!;
      await expect(client.download(visible.url, join(dir, 'r.gbx'))).resolves.toMatchObject({ state: 'downloaded' });
    } finally {
      await rm(dir, { recursive: true });
    }
    const stats = emu.stats();
    expect(stats.byRoute[LOGIN]).toBe(1);
    expect(stats.byStatus['401']).toBeUndefined();
  });

  it('refreshes ahead of expiry once allowed (client clock moved forward)', async () => {
    emu = await startEmulator({ dataset, auth: { ...credentials, refreshAllowedAfterSec: 0 } });
    let skew = 0;
    client = createNadeoClient(testClientOptions(emu.url, { credentials, now: () => Date.now() + skew }));
    await client.getMapsByUid([dataset.maps[0]!.mapUid]);
    skew = 58 * 60_000; // two minutes before the hour-long access token expires
    await client.getMapsByUid([dataset.maps[1]!.mapUid]);
    const stats = emu.stats();
    expect(stats.byRoute[LOGIN]).toBe(1);
    expect(stats.byRoute[REFRESH]).toBe(1);
    expect(stats.byStatus['401']).toBeUndefined();
  });

  it('a token the service has expired gets one 401, a renewal and one retry', async () => {
    // The service's clock jumps past the token's lifetime when the test says, not after a sleep a loaded machine stretches.
    let serviceSkew = 0;
    emu = await startEmulator({ dataset, now: () => Date.now() + serviceSkew, auth: { ...credentials, accessTtlSec: 60, refreshAllowedAfterSec: 0 } });
    // The client's clock runs a minute slow, so it still trusts a token the service has expired.
    client = createNadeoClient(testClientOptions(emu.url, { credentials, now: () => Date.now() - 60_000 }));
    await client.getMapsByUid([dataset.maps[0]!.mapUid]);
    serviceSkew = 61_000;
    const { maps } = await client.getMapsByUid([dataset.maps[1]!.mapUid]);
    expect(maps).toHaveLength(1);
    const stats = emu.stats();
    expect(stats.byStatus['401']).toBe(1);
    expect((stats.byRoute[LOGIN] ?? 0) + (stats.byRoute[REFRESH] ?? 0)).toBe(2);
  });

  it('a wrong password is an AuthError saying a service account is needed, tried once', async () => {
    emu = await startEmulator({ dataset, auth: credentials });
    client = createNadeoClient(testClientOptions(emu.url, { credentials: { ...credentials, password: 'nope' } }));
    const error = await client.testLogin().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).message).toMatch(/login or password is wrong.*service account/s);
    expect(emu.stats().byRoute[LOGIN]).toBe(1);
    await expect(client.getMapsByUid([dataset.maps[0]!.mapUid])).rejects.toBeInstanceOf(AuthError);
  });

  it('testLogin succeeds with good credentials, and without any says a login is needed', async () => {
    emu = await startEmulator({ dataset, auth: credentials });
    client = createNadeoClient(testClientOptions(emu.url, { credentials }));
    await client.testLogin();
    await client.close();
    client = createNadeoClient(testClientOptions(emu.url));
    await expect(client.testLogin()).rejects.toThrow(/service account/);
  });

  it('knows which account reads the records: the token\'s subject, whose own secret records the service shows', async () => {
    const me = dataset.records.find((r) => r.scopeType === 'PersonalBest')!.accountId;
    emu = await startEmulator({ dataset, auth: { ...credentials, accountId: me.toUpperCase() } });
    client = createNadeoClient(testClientOptions(emu.url, { credentials }));
    expect(client.viewer()).toBeUndefined();
    await client.testLogin();
    expect(client.viewer()).toBe(me.toLowerCase());
    await client.close();
    // Without credentials nobody reads them: every secret entry is hidden.
    client = createNadeoClient(testClientOptions(emu.url));
    expect(client.viewer()).toBeNull();
  });

  it('never sends the token to another host', async () => {
    emu = await startEmulator({ dataset, auth: credentials });
    const seen: (string | undefined)[] = [];
    const foreign = createServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(200, { 'content-length': '4' }).end('GBX!');
    });
    await new Promise<void>((ok) => foreign.listen(0, '127.0.0.1', ok));
    const dir = await mkdtemp(join(tmpdir(), 'tw-auth-'));
    try {
      client = createNadeoClient(testClientOptions(emu.url, { credentials }));
      await client.getMapsByUid([dataset.maps[0]!.mapUid]); // holds a token now
      const port = (foreign.address() as AddressInfo).port;
      await expect(client.download(`http://127.0.0.1:${port}/storageObjects/abc`, join(dir, 'x'))).resolves.toMatchObject({ state: 'downloaded', bytes: 4 });
      expect(seen).toEqual([undefined]);
    } finally {
      foreign.close();
      await rm(dir, { recursive: true });
    }
  });
});
