// The kind of trouble read back from the API core's own error wording.
import { describe, expect, it } from 'vitest';
import { AuthError, NetworkError, TimeoutError } from '../../../src-main/core/nadeo/http/errors.ts';
import { toNadeoError } from '../../../src-main/core/nadeo/http/answers.ts';
import { failedMapsOf, syncErrorFor, syncErrorOf } from '../../../src-main/service/sync-outcome.ts';

describe('sync errors by kind', () => {
  it('reads unreachable, refused and slowed-down from the core\'s messages', () => {
    const refused = toNadeoError(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }), undefined, 'GET /v2/mapRecords/');
    expect(refused).toBeInstanceOf(NetworkError);
    expect(syncErrorOf((refused as Error).message).code).toBe('offline');
    const unresolved = toNadeoError(Object.assign(new Error('dns'), { code: 'ENOTFOUND' }), undefined, 'GET /maps/');
    expect(syncErrorOf((unresolved as Error).message).code).toBe('offline');
    const slow = toNadeoError(Object.assign(new Error('slow'), { code: 'UND_ERR_HEADERS_TIMEOUT' }), undefined, 'GET /maps/');
    expect(slow).toBeInstanceOf(TimeoutError);
    expect(syncErrorOf((slow as Error).message).code).toBe('offline');
    expect(syncErrorOf(`could not look up 3 map UID(s): ${(refused as Error).message}`).code).toBe('offline');
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
