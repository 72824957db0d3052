import { describe, expect, it } from 'vitest';
import { Limiter, LimiterPool } from '../../../src-main/core/nadeo/http/limiter.ts';
import { AbortError, ConfigError } from '../../../src-main/core/nadeo/http/errors.ts';
import { FakeClock, flush } from './fake-clock.ts';
import { mulberry32 } from '../../../src-main/emulator/prng.ts';

/** Acquires `n` slots (each released at once) and records the fake time of every grant. */
function startMany(limiter: Limiter, clock: FakeClock, n: number): { grants: number[]; done: Promise<void> } {
  const grants: number[] = [];
  const done = Promise.all(
    Array.from({ length: n }, async () => {
      const release = await limiter.acquire();
      grants.push(clock.now());
      release();
    }),
  ).then(() => undefined);
  return { grants, done };
}

describe('Limiter: rate', () => {
  it('spaces grants exactly 1/rate apart at 20 rps (no drift over 100 requests)', async () => {
    const clock = new FakeClock();
    const limiter = new Limiter({ maxRps: 20, clock });
    const { grants, done } = startMany(limiter, clock, 100);
    await clock.advance(10_000);
    await done;
    expect(grants).toHaveLength(100);
    expect(grants[0]).toBe(0);
    expect(grants[99]).toBe(99 * 50);
    const achieved = 99 / ((grants[99]! - grants[0]!) / 1000);
    expect(achieved).toBeGreaterThanOrEqual(0.95 * 20);
    expect(achieved).toBeLessThanOrEqual(20.0001);
  });

  it('defaults to one request per second', async () => {
    const clock = new FakeClock();
    const limiter = new Limiter({ maxRps: 1, clock });
    const { grants, done } = startMany(limiter, clock, 3);
    await clock.advance(5000);
    await done;
    expect(grants).toEqual([0, 1000, 2000]);
  });

  it('with a burst of 2 (what Trackwatch runs with), timer lateness is absorbed instead of adding up', async () => {
    const clock = new FakeClock();
    clock.lateMs = 3; // every timer fires 3 ms late
    // At burst 1 nothing may be taken back without a start coming sooner than 1/rate after another (never above).
    const limiter = new Limiter({ maxRps: 20, burst: 2, clock });
    const { grants, done } = startMany(limiter, clock, 100);
    await clock.advance(10_000);
    await done;
    // Naive sleeping would end at 99 * 53 = 5247 ms; scheduling by time ends within one lateness of 4950.
    expect(grants[99]!).toBeLessThanOrEqual(99 * 50 + 3);
  });

  it('does not catch up with a burst after a long stall', async () => {
    const clock = new FakeClock();
    const limiter = new Limiter({ maxRps: 20, clock });
    const { grants, done } = startMany(limiter, clock, 5);
    await clock.advance(0); // first grant at 0
    clock.lateMs = 500; // the next timer fires half a second late
    await clock.advance(560);
    clock.lateMs = 0;
    await clock.advance(1000);
    await done;
    for (let i = 2; i < grants.length; i++) expect(grants[i]! - grants[i - 1]!).toBeGreaterThanOrEqual(40);
  });

  it('lets `burst` requests start together, then paces the rest', async () => {
    const clock = new FakeClock();
    const limiter = new Limiter({ maxRps: 10, burst: 3, clock });
    const { grants, done } = startMany(limiter, clock, 6);
    await clock.advance(2000);
    await done;
    expect(grants).toEqual([0, 0, 0, 100, 200, 300]);
  });
});


/**
 * Waves of requests with quiet spells between them (so the burst refills), timers that fire up to 12 ms late or
 * 3 ms early, and every grant's fake time recorded.
 */
async function grantsUnderJitter(maxRps: number, burst: number, seed: number): Promise<number[]> {
  const clock = new FakeClock();
  const random = mulberry32(seed);
  clock.lateness = () => Math.floor(random() * 16) - 3;
  const limiter = new Limiter({ maxRps, burst, concurrency: 64, clock });
  const grants: number[] = [];
  const all: Promise<void>[] = [];
  const wave = Math.ceil(maxRps * 3) + burst;
  for (let w = 0; w < 6; w++) {
    for (let i = 0; i < wave; i++) {
      all.push(
        limiter.acquire().then((release) => {
          grants.push(clock.now());
          release();
        }),
      );
    }
    await clock.advance(Math.floor(random() * 6000));
  }
  await clock.advance((6 * wave * 1000) / maxRps + 10_000);
  await Promise.all(all);
  expect(grants).toHaveLength(6 * wave);
  return grants.sort((a, b) => a - b);
}

describe('Limiter: never above its rate', () => {
  const cases = [
    { maxRps: 20, burst: 1 },
    { maxRps: 19.9, burst: 1 },
    { maxRps: 1, burst: 2 },
    { maxRps: 1.8, burst: 2 },
    { maxRps: 2, burst: 2 },
    { maxRps: 0.7, burst: 1 },
    { maxRps: 7.3, burst: 3 },
  ];
  for (const { maxRps, burst } of cases) {
    it(`no window of 1 s holds more than rate x 1 s + burst starts, whatever the timers do (maxRps ${maxRps}, burst ${burst})`, async () => {
      for (const seed of [1, 2, 3]) {
        const grants = await grantsUnderJitter(maxRps, burst, seed);
        const interval = 1000 / maxRps;
        for (let i = 0; i < grants.length; i++) {
          let inWindow = 0;
          for (let j = i; j < grants.length && grants[j]! <= grants[i]! + 1000; j++) inWindow++;
          expect(inWindow, `${inWindow} starts in the second from ${grants[i]} ms`).toBeLessThanOrEqual(maxRps * 1 + burst);
          // The same bound over any span: k starts after this one take at least (k - burst + 1) intervals.
          for (let j = i + burst; j < Math.min(grants.length, i + burst + 40); j++) {
            expect(grants[j]! - grants[i]!, `starts ${i} and ${j}`).toBeGreaterThanOrEqual((j - i - burst + 1) * interval - 1e-9);
          }
        }
      }
    });
  }
});

describe('Limiter: concurrency, pause, abort', () => {
  it('holds requests beyond `concurrency` until a slot is released', async () => {
    const clock = new FakeClock();
    const limiter = new Limiter({ maxRps: 1000, burst: 10, concurrency: 2, clock });
    const r1 = await limiter.acquire();
    await limiter.acquire();
    let third = false;
    const p3 = limiter.acquire().then((r) => {
      third = true;
      return r;
    });
    await clock.advance(1000);
    expect(third).toBe(false);
    expect(limiter.stats()).toMatchObject({ active: 2, waiting: 1 });
    r1();
    r1(); // releasing twice must not free two slots
    await flush();
    expect(third).toBe(true);
    expect(limiter.stats()).toMatchObject({ active: 2, waiting: 0 });
    (await p3)();
  });

  it('pauseFor holds every request until the pause ends', async () => {
    const clock = new FakeClock();
    const limiter = new Limiter({ maxRps: 100, burst: 5, clock });
    limiter.pauseFor(2000);
    const { grants, done } = startMany(limiter, clock, 2);
    await clock.advance(1999);
    expect(grants).toEqual([]);
    await clock.advance(1000);
    await done;
    expect(grants[0]).toBe(2000);
  });

  it('an aborted waiter leaves the queue at once and gives its turn to the next', async () => {
    const clock = new FakeClock();
    const limiter = new Limiter({ maxRps: 1, clock });
    (await limiter.acquire())();
    const controller = new AbortController();
    const aborted = limiter.acquire(controller.signal);
    const next = limiter.acquire();
    let nextAt = -1;
    void next.then(() => (nextAt = clock.now()));
    controller.abort();
    await expect(aborted).rejects.toBeInstanceOf(AbortError);
    await clock.advance(3000);
    expect(nextAt).toBe(1000);
  });

  it('rejects an already aborted signal without taking a slot', async () => {
    const limiter = new Limiter({ maxRps: 1, clock: new FakeClock() });
    await expect(limiter.acquire(AbortSignal.abort())).rejects.toBeInstanceOf(AbortError);
    expect(limiter.stats().granted).toBe(0);
  });

  it('dispose rejects everyone waiting', async () => {
    const clock = new FakeClock();
    const limiter = new Limiter({ maxRps: 1, clock });
    await limiter.acquire();
    const waiting = limiter.acquire();
    limiter.dispose();
    await expect(waiting).rejects.toBeInstanceOf(AbortError);
    await expect(limiter.acquire()).rejects.toBeInstanceOf(AbortError);
    expect(clock.pending).toBe(0);
  });

  it('refuses nonsense settings with a ConfigError', () => {
    expect(() => new Limiter({ maxRps: 0 })).toThrow(ConfigError);
    expect(() => new Limiter({ maxRps: 1, burst: 0 })).toThrow(ConfigError);
    expect(() => new Limiter({ maxRps: 1, concurrency: 1.5 })).toThrow(ConfigError);
  });

  it('refuses rates outside the sane range, naming the option and the range', () => {
    expect(() => new Limiter({ maxRps: 1e-12 })).toThrow('maxRps must be a number from 0.01 to 10000, got 1e-12.');
    expect(() => new Limiter({ maxRps: Number.POSITIVE_INFINITY })).toThrow(/maxRps must be a number from 0.01 to 10000, got Infinity/);
    expect(() => new Limiter({ maxRps: 1, burst: 65 })).toThrow('burst must be a whole number from 1 to 64, got 65.');
    expect(() => new Limiter({ maxRps: 1, concurrency: 100 })).toThrow('concurrency must be a whole number from 1 to 64, got 100.');
    expect(new Limiter({ maxRps: 0.01, burst: 64, concurrency: 64 }).maxRps).toBe(0.01);
  });

  it('block fails everyone waiting and every acquire until its time, without a timer', async () => {
    const clock = new FakeClock();
    const limiter = new Limiter({ maxRps: 1, clock });
    (await limiter.acquire())();
    const waiting = limiter.acquire(); // waits for the next token, a second away
    let n = 0;
    limiter.block(10_000, () => new Error(`blocked ${++n}`));
    await expect(waiting).rejects.toThrow('blocked 1');
    await expect(limiter.acquire()).rejects.toThrow('blocked 2');
    expect(clock.pending).toBe(0);
    await clock.advance(9_999);
    await expect(limiter.acquire()).rejects.toThrow('blocked 3');
    await clock.advance(1);
    const release = await limiter.acquire();
    release();
    expect(limiter.stats().granted).toBe(2);
  });

  it('a pause beyond what a Node timer holds is waited out in steps, not in a burst of overflowing timers', async () => {
    const clock = new FakeClock();
    const delays: number[] = [];
    const setTimeout = clock.setTimeout;
    clock.setTimeout = (fn, ms) => {
      delays.push(ms);
      return setTimeout(fn, ms);
    };
    const limiter = new Limiter({ maxRps: 1, clock });
    limiter.pauseFor(2 ** 32);
    let granted = false;
    void limiter.acquire().then(() => (granted = true));
    await clock.advance(2 ** 31);
    expect(granted).toBe(false);
    await clock.advance(2 ** 31);
    expect(granted).toBe(true);
    expect(Math.max(...delays)).toBe(2 ** 31 - 1);
    expect(delays.length).toBeLessThanOrEqual(4);
  });
});

describe('LimiterPool', () => {
  it('gives one limiter per origin, shared by every caller', () => {
    const pool = new LimiterPool({ maxRps: 2 });
    expect(pool.for('https://a.example')).toBe(pool.for('https://a.example'));
    expect(pool.for('https://a.example')).not.toBe(pool.for('https://b.example'));
    expect(pool.for('https://a.example').maxRps).toBe(2);
  });
});
