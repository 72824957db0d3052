import { describe, expect, it } from 'vitest';
import { backoffDelay, decideRetry, isRetryableStatus, parseRetryAfter, retryPolicy, sleep } from '../../../src-main/core/nadeo/http/retry.ts';
import { AbortError, ErrorCode, HttpError, NetworkError, SchemaError, TimeoutError } from '../../../src-main/core/nadeo/http/errors.ts';
import { httpErrorFor } from '../../../src-main/core/nadeo/http/answers.ts';

const NOW = Date.parse('2026-03-01T12:00:00Z');
const spec = { method: 'GET', route: 'GET /maps/', target: '/maps/?mapUidList=a', detectGoneRoute: true, ownNotFoundCodes: ['C-AL-02-03'] } as const;

describe('parseRetryAfter', () => {
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('3', NOW)).toBe(3000);
    expect(parseRetryAfter(' 0 ', NOW)).toBe(0);
    expect(parseRetryAfter(['7', '9'], NOW)).toBe(7000);
  });
  it('reads an HTTP date relative to now, never negative', () => {
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:00:05 GMT', NOW)).toBe(5000);
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT', NOW)).toBe(0);
  });
  it('ignores what is absent or malformed', () => {
    expect(parseRetryAfter(undefined, NOW)).toBeUndefined();
    expect(parseRetryAfter('', NOW)).toBeUndefined();
    expect(parseRetryAfter('-5', NOW)).toBeUndefined();
    expect(parseRetryAfter('1.5', NOW)).toBeUndefined();
    expect(parseRetryAfter('soon', NOW)).toBeUndefined();
  });
});

describe('backoffDelay', () => {
  const policy = { baseDelayMs: 100, maxDelayMs: 1000 };
  it('doubles per attempt with half of it jittered', () => {
    expect(backoffDelay(1, policy, () => 0)).toBe(50);
    expect(backoffDelay(1, policy, () => 0.999999)).toBeCloseTo(100, 3);
    expect(backoffDelay(3, policy, () => 0)).toBe(200);
  });
  it('is capped', () => {
    expect(backoffDelay(20, policy, () => 0.999999)).toBeLessThanOrEqual(1000);
    expect(backoffDelay(20, policy, () => 0)).toBe(500);
  });
});

describe('which failures are retried', () => {
  it('retries 408, 429 and 5xx except 501/505', () => {
    for (const s of [408, 429, 500, 502, 503, 504]) expect(isRetryableStatus(s), String(s)).toBe(true);
    for (const s of [400, 401, 403, 404, 410, 414, 501, 505]) expect(isRetryableStatus(s), String(s)).toBe(false);
  });

  const policy = retryPolicy({ maxAttempts: 3, baseDelayMs: 100, maxDelayMs: 1000 });
  it('never retries validation, not found, forbidden or too long', () => {
    for (const status of [400, 403, 404, 414]) {
      const e = httpErrorFor(spec, status, '{"code":"C-AA-00-03","message":"x"}', undefined);
      expect(decideRetry(e, 1, policy).retry, String(status)).toBe(false);
    }
    expect(decideRetry(new SchemaError('r', 'maps[0].mapId', 'expected string'), 1, policy).retry).toBe(false);
    expect(decideRetry(new AbortError(), 1, policy).retry).toBe(false);
    expect(decideRetry(new TypeError('bug'), 1, policy).retry).toBe(false);
  });
  it('retries network errors and timeouts with backoff, up to maxAttempts', () => {
    expect(decideRetry(new NetworkError('x'), 1, policy, () => 0)).toEqual({ retry: true, delayMs: 50, fromRetryAfter: false });
    expect(decideRetry(new TimeoutError('x'), 2, policy, () => 0)).toEqual({ retry: true, delayMs: 100, fromRetryAfter: false });
    expect(decideRetry(new NetworkError('x'), 3, policy).retry).toBe(false);
  });
  it('lets Retry-After beat the computed backoff', () => {
    const e = httpErrorFor(spec, 429, '', 7000);
    expect(e.code).toBe(ErrorCode.RATE_LIMITED);
    expect(decideRetry(e, 1, policy, () => 0)).toEqual({ retry: true, delayMs: 7000, fromRetryAfter: true });
  });
  it('gives up when Retry-After asks for longer than maxRetryAfterMs', () => {
    const e = httpErrorFor(spec, 503, '', 3_600_000);
    expect(decideRetry(e, 1, retryPolicy({ maxRetryAfterMs: 60_000 })).retry).toBe(false);
  });
});

describe('sleep', () => {
  it('rejects promptly on abort', async () => {
    const c = new AbortController();
    const p = sleep(60_000, c.signal);
    c.abort();
    await expect(p).rejects.toBeInstanceOf(AbortError);
  });
});

describe('HttpError classification', () => {
  it('maps the seed error bodies to stable codes with details', () => {
    const v = httpErrorFor(spec, 400, JSON.stringify({ code: 'C-AA-00-03', correlation_id: 'ab12', message: 'There was a validation error.', info: { mapIdList: 'Invalid uuid' } }), undefined);
    expect(v).toBeInstanceOf(HttpError);
    expect(v).toMatchObject({ code: 'VALIDATION', status: 400, apiCode: 'C-AA-00-03', correlationId: 'ab12', info: { mapIdList: 'Invalid uuid' }, retryable: false });
    const arr = httpErrorFor(spec, 400, JSON.stringify({ code: 'C-AA-00-03', message: 'x', info: ['accountIdList: Invalid account id.'] }), undefined);
    expect(arr.info).toEqual(['accountIdList: Invalid account id.']);
    expect(httpErrorFor(spec, 404, '{"code":"C-AL-02-03","message":"Not Found"}', undefined).code).toBe('NOT_FOUND');
    expect(httpErrorFor(spec, 404, '<html>nginx</html>', undefined).code).toBe('ROUTE_GONE');
    // An API-looking body that is not the endpoint's own documented answer proves nothing (issue 9).
    expect(httpErrorFor(spec, 404, '{"code":"C-AA-00-04","correlation_id":"9a","message":"Route not found"}', undefined).code).toBe('ROUTE_GONE');
    expect(httpErrorFor({ ...spec, ownNotFoundCodes: [] }, 404, '{"code":"C-AL-02-03","message":"Not Found"}', undefined).code).toBe('ROUTE_GONE');
    expect(httpErrorFor(spec, 410, '', undefined).code).toBe('ROUTE_GONE');
    expect(httpErrorFor({ ...spec, detectGoneRoute: false }, 404, '', undefined).code).toBe('NOT_FOUND');
    expect(httpErrorFor(spec, 401, '', undefined).code).toBe('UNAUTHORIZED');
    expect(httpErrorFor(spec, 403, '{"code":"C-AA-00-19","message":"Forbidden."}', undefined).code).toBe('FORBIDDEN');
    expect(httpErrorFor(spec, 414, '', undefined)).toMatchObject({ code: 'URI_TOO_LONG', targetLength: spec.target.length });
    expect(httpErrorFor(spec, 503, '', undefined)).toMatchObject({ code: 'HTTP', retryable: true });
  });
  it('says what went wrong and what to do, without the query string', () => {
    const e = httpErrorFor(spec, 400, '{"code":"C-AA-00-03","message":"There was a validation error.","info":["mapId: Invalid uuid."]}', undefined);
    expect(e.message).toContain('GET /maps/');
    expect(e.message).toContain('mapId: Invalid uuid.');
    expect(e.message).toMatch(/Check/);
    expect(e.message).not.toContain('mapUidList=');
  });
});

describe('which validation errors can be bisected', () => {
  it('only those about the list parameter alone', async () => {
    const { validationNamesParam } = await import('../../../src-main/core/nadeo/http/lookup.ts');
    const err = (info: unknown) => httpErrorFor(spec, 400, JSON.stringify({ code: 'C-AA-00-03', message: 'x', info }), undefined);
    expect(validationNamesParam(err(['accountIdList: Invalid account id.']), 'accountIdList')).toBe(true);
    expect(validationNamesParam(err({ mapIdList: 'Invalid uuid.' }), 'mapIdList')).toBe(true);
    expect(validationNamesParam(err(['mapId: Invalid uuid.', 'accountIdList: Invalid account id.']), 'accountIdList')).toBe(false);
    expect(validationNamesParam(err(['seasonId: nope']), 'accountIdList')).toBe(false);
    expect(validationNamesParam(httpErrorFor(spec, 400, '', undefined), 'mapIdList')).toBe(false);
  });
});
