// The kind of trouble read back from the API core's own error wording.
import { describe, expect, it } from 'vitest';
import { AuthError, NetworkError, TimeoutError } from '../../../src-main/core/nadeo/http/errors.ts';
import { toNadeoError } from '../../../src-main/core/nadeo/http/answers.ts';
import { failedMapsOf, syncErrorFor, syncErrorOf } from '../../../src-main/service/sync-outcome.ts';

describe('sync errors by kind', () => {
  it('reads unreachable, refused and slowed-down from the core\'s messages', () => {
    const refused = toNadeoError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }), undefined, 'https://prod.trackmania.core.nadeo.online');
    expect(refused).toBeInstanceOf(NetworkError);
    expect(syncErrorOf((refused as Error).message).code).toBe('offline');
    const unresolved = toNadeoError(Object.assign(new Error('dns'), { code: 'ENOTFOUND' }), undefined, 'https://prod.trackmania.core.nadeo.online');
    expect(syncErrorOf((unresolved as Error).message).code).toBe('offline');
    const slow = toNadeoError(Object.assign(new Error('slow'), { code: 'UND_ERR_HEADERS_TIMEOUT' }), undefined, 'https://prod.trackmania.core.nadeo.online');
    expect(slow).toBeInstanceOf(TimeoutError);
    expect(syncErrorOf((slow as Error).message).code).toBe('offline');
    expect(syncErrorOf(`could not look up 3 map UID(s): ${(refused as Error).message}`).code).toBe('offline');
    const dropped = toNadeoError(Object.assign(new Error('reset'), { code: 'ECONNRESET' }), undefined, 'https://live-services.trackmania.nadeo.live', true);
    expect(syncErrorOf((dropped as Error).message).code).toBe('offline');
    const noConnection = toNadeoError(Object.assign(new Error('connect'), { code: 'UND_ERR_CONNECT_TIMEOUT' }), undefined, 'https://prod.trackmania.core.nadeo.online');
    expect(syncErrorOf((noConnection as Error).message).code).toBe('offline');
    // Each names the service by its host, never by a route.
    for (const e of [refused, unresolved, slow, dropped, noConnection]) expect((e as Error).message).toMatch(/(prod\.trackmania\.core|live-services\.trackmania)\.nadeo\.(online|live)/);
    expect((refused as Error).message).toBe('The service at prod.trackmania.core.nadeo.online could not be reached (ECONNREFUSED). Trackwatch retries a few times; check your connection if it persists.');
    expect(syncErrorOf(new AuthError('Logging in to Nadeo failed (HTTP 401): the login or password is wrong.').message).code).toBe('auth_failed');
    expect(syncErrorOf('GET /v2/mapRecords/: the service asks Trackwatch to slow down for 5 s. Lower the request rate or try again later.').code).toBe('rate_limited');
    expect(syncErrorOf('GET /maps/ answered 500').code).toBe('service_error');
  });

  it('gives an error only to failed and partial syncs, and counts failed maps once each', () => {
    expect(syncErrorFor('ok', 'x')).toBeNull();
    expect(syncErrorFor('cancelled', 'The sync was cancelled.')).toBeNull();
    expect(syncErrorFor('failed', null)).toBeNull();
    expect(syncErrorFor('partial', 'HTTP 500')).toEqual({ code: 'service_error', message: 'HTTP 500' });
    expect(failedMapsOf([{ mapId: 'a' }, { mapId: 'a' }, { mapId: null }, { mapId: 'b' }])).toBe(2);
  });
});
