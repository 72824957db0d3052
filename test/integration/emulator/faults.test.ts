// Injected faults, the rate limit, latency and the request statistics.
import { describe, expect, it, vi } from 'vitest';
import { generateDataset, type RunningEmulator } from '../../../src-main/emulator/index.ts';
import { startTestEmulator } from '../../helpers/emulator.ts';
import { get, mapsByKind, unknownUuid } from './support.ts';
import { DATA_NOW } from '../../helpers/clock.ts';

const dataset = generateDataset({ now: DATA_NOW, seed: 17, maps: 6, players: 4 });
const mapId = mapsByKind(dataset).race.mapId;

/** What one request met: a status, or how the connection failed. */
async function outcome(url: string): Promise<string> {
  try {
    const reply = await get(url);
    return reply.status === 429 || reply.status === 503 ? `${reply.status} retry-after ${String(reply.headers['retry-after'])}` : String(reply.status);
  } catch (error) {
    // A truncated body and a dropped connection both reject; the stats tell which.
    return `failed: ${error instanceof Error ? error.name : 'error'}`;
  }
}

async function run(emu: RunningEmulator, n: number): Promise<string[]> {
  const results: string[] = [];
  for (let i = 0; i < n; i++) results.push(await outcome(`${emu.url}/maps/?mapIdList=${mapId},${unknownUuid(i)}`));
  return results;
}

async function withEmulator<T>(options: Parameters<typeof startTestEmulator>[0], body: (emu: RunningEmulator) => Promise<T>): Promise<T> {
  const emu = await startTestEmulator({ dataset, ...options });
  try {
    return await body(emu);
  } finally {
    await emu.close();
  }
}

describe('faults', () => {
  it('faults: the same faultSeed gives the same faults for the same requests; another seed differs', async () => {
    const a = await withEmulator({ failRate: 0.5, faultSeed: 42 }, (emu) => run(emu, 24));
    const b = await withEmulator({ failRate: 0.5, faultSeed: 42 }, (emu) => run(emu, 24));
    const c = await withEmulator({ failRate: 0.5, faultSeed: 43 }, (emu) => run(emu, 24));
    expect(b).toEqual(a);
    expect(c).not.toEqual(a);
    expect(a.filter((x) => x === '200').length).toBeGreaterThan(0);
    expect(a.filter((x) => x !== '200').length).toBeGreaterThan(0);
  });

  it('faults: every kind occurs (500, 503 and 429 with Retry-After, dropped connection, truncated body) and is counted', async () => {
    await withEmulator({ failRate: 1, faultSeed: 7, retryAfterSec: 3 }, async (emu) => {
      const results = await run(emu, 40);
      expect(results).toContain('500');
      expect(results).toContain('503 retry-after 3');
      expect(results).toContain('429 retry-after 3');
      expect(results.some((r) => r.startsWith('failed'))).toBe(true);
      const stats = emu.stats();
      expect(stats.faults).toBe(40);
      expect(stats.byStatus.dropped).toBeGreaterThan(0);
      // A truncated answer declares the full length with a 200 and never completes.
      const truncated = stats.byStatus['200'] ?? 0;
      expect(truncated).toBeGreaterThan(0);
      expect(results.filter((r) => r === '200')).toHaveLength(0);
      expect(results.filter((r) => r.startsWith('failed'))).toHaveLength(truncated + (stats.byStatus.dropped ?? 0));
    });
  });

  it('faults: a retry of the same request gets a new draw, so it can succeed', async () => {
    await withEmulator({ failRate: 0.5, faultSeed: 5 }, async (emu) => {
      const url = `${emu.url}/maps/?mapIdList=${mapId}`;
      const results: string[] = [];
      for (let i = 0; i < 12; i++) results.push(await outcome(url));
      expect(results).toContain('200');
      expect(results.some((r) => r !== '200')).toBe(true);
    });
  });

  it('faults: token routes are never faulted', async () => {
    await withEmulator({ failRate: 1, auth: { login: 'l', password: 'p' } }, async (emu) => {
      for (let i = 0; i < 5; i++) {
        const reply = await fetch(`${emu.url}/v2/authentication/token/basic`, {
          method: 'POST',
          headers: { authorization: `Basic ${Buffer.from('l:p').toString('base64')}`, 'content-type': 'application/json' },
          body: '{"audience":"NadeoServices"}',
        });
        expect(reply.status).toBe(200);
      }
      expect(emu.stats().faults).toBe(0);
    });
  });
});

describe('rate limit and latency', () => {
  it('rate limit: beyond the burst (ceil(rps)) requests get 429 with a Retry-After of at least 1 second', async () => {
    await withEmulator({ rateLimitRps: 2 }, async (emu) => {
      const replies = [];
      for (let i = 0; i < 4; i++) replies.push(await get(`${emu.url}/maps/?mapIdList=${mapId}`));
      expect(replies.slice(0, 2).map((r) => r.status)).toEqual([200, 200]);
      const limited = replies.filter((r) => r.status === 429);
      expect(limited.length).toBeGreaterThan(0);
      for (const r of limited) expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(emu.stats().byStatus['429']).toBe(limited.length);
    });
  });

  it('latency: an answer is held back for latencyMs (counted on arrival, answered after)', async () => {
    await withEmulator({ latencyMs: 60_000 }, async (emu) => {
      const answer = get(`${emu.url}/maps/?mapIdList=${mapId}`).then((r) => r.status, () => 'closed');
      // Until it has arrived, however long a loaded machine takes to send it.
      await vi.waitFor(() => expect(emu.stats().requests).toBeGreaterThan(0), { timeout: 20_000, interval: 5 });
      expect(emu.stats().requests).toBe(1);
      // Arrived, and still unanswered after the event loop has turned many times: it waits out its latency.
      for (let i = 0; i < 20; i += 1) await new Promise((r) => setImmediate(r));
      expect(emu.stats().byStatus).toEqual({});
      await emu.close(); // ends the wait: a closing emulator drops what it holds
      expect(await answer).toBe('closed');
    });
  });

  it('hold: a request the test names waits until the test lets it go; the others are answered meanwhile', async () => {
    let letGo!: () => void;
    const held = new Promise<void>((resolve) => (letGo = resolve));
    const asked: string[] = [];
    const hold = (path: string): Promise<void> | undefined => {
      asked.push(path);
      return path.startsWith('/v2/mapRecords') ? held : undefined;
    };
    await withEmulator({ hold }, async (emu) => {
      let answered = false;
      const records = get(`${emu.url}/v2/mapRecords/?mapId=bad&accountIdList=bad`).then((r) => {
        answered = true;
        return r.status;
      });
      await vi.waitFor(() => expect(asked).toContain('/v2/mapRecords/'), { timeout: 20_000, interval: 5 });
      // Another route passes while the records request waits, its query not part of the path the hold is given.
      expect((await get(`${emu.url}/maps/?mapIdList=${mapId}`)).status).toBe(200);
      expect(asked).toEqual(['/v2/mapRecords/', '/maps/']);
      expect(answered).toBe(false);
      letGo();
      expect(await records).toBe(400);
    });
  });

  it('stats: requests, byRoute and byStatus count every request; resetStats clears them', async () => {
    await withEmulator({}, async (emu) => {
      await get(`${emu.url}/maps/?mapIdList=${mapId}`);
      await get(`${emu.url}/maps/by-uid/?mapUidList=x`);
      await get(`${emu.url}/v2/mapRecords/?mapId=bad&accountIdList=bad`);
      await get(`${emu.url}/nowhere`);
      const stats = emu.stats();
      expect(stats.requests).toBe(4);
      expect(stats.byRoute).toEqual({ 'GET /maps/': 1, 'GET /maps/by-uid/': 1, 'GET /v2/mapRecords/': 1, unknown: 1 });
      expect(stats.byStatus).toEqual({ '200': 2, '400': 1, '404': 1 });
      emu.resetStats();
      expect(emu.stats()).toEqual({ requests: 0, byRoute: {}, byStatus: {}, faults: 0, uriTooLong: 0, maxUriLength: 0 });
    });
  });
});
