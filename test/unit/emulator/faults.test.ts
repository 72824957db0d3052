// Fault choice and the token bucket, with a fake clock.
import { describe, expect, it } from 'vitest';
import { FAULT_KINDS, FaultPlan, TokenBucket } from '../../../src-main/emulator/faults.ts';

describe('FaultPlan', () => {
  it('fails about failRate of requests, the same way for the same seed', () => {
    const draw = (seed: number) => {
      const plan = new FaultPlan(0.3, seed);
      return Array.from({ length: 2000 }, (_, i) => plan.next(`GET /maps/?mapIdList=${i}`));
    };
    const a = draw(1);
    expect(draw(1)).toEqual(a);
    expect(draw(2)).not.toEqual(a);
    const share = a.filter((f) => f !== undefined).length / a.length;
    expect(share).toBeGreaterThan(0.25);
    expect(share).toBeLessThan(0.35);
    for (const kind of FAULT_KINDS) expect(a).toContain(kind);
  });

  it('never fails at rate 0 and always at rate 1', () => {
    const never = new FaultPlan(0, 1);
    const always = new FaultPlan(1, 1);
    for (let i = 0; i < 100; i++) {
      expect(never.next(`k${i}`)).toBeUndefined();
      expect(always.next(`k${i}`)).toBeDefined();
    }
  });

  it('decides per request and attempt, whatever else runs in between', () => {
    const alone = new FaultPlan(0.5, 9);
    const busy = new FaultPlan(0.5, 9);
    const mine = [alone.next('A'), alone.next('A'), alone.next('A')];
    busy.next('B');
    const first = busy.next('A');
    busy.next('C');
    expect([first, busy.next('A'), busy.next('A')]).toEqual(mine);
  });
});

describe('TokenBucket', () => {
  it('allows a burst of ceil(rps), then answers the wait in whole seconds, at least 1', () => {
    let now = 0;
    const bucket = new TokenBucket(2.5, () => now);
    expect([bucket.take(), bucket.take(), bucket.take()]).toEqual([undefined, undefined, undefined]);
    expect(bucket.take()).toBe(1);
    now += 400;
    expect(bucket.take()).toBeUndefined();
    expect(bucket.take()).toBe(1);
  });

  it('rounds a long wait up', () => {
    let now = 0;
    const bucket = new TokenBucket(0.25, () => now);
    expect(bucket.take()).toBeUndefined();
    expect(bucket.take()).toBe(4);
    now += 3000;
    expect(bucket.take()).toBe(1);
    now += 1000;
    expect(bucket.take()).toBeUndefined();
  });
});
