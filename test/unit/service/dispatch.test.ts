import { describe, expect, it } from 'vitest';
import type { Handlers } from '../../../src-main/contract/commands.ts';
import { dispatch } from '../../../src-main/service/dispatch.ts';
import { ServiceError, toErrorValue } from '../../../src-main/service/errors.ts';
import { AuthError, NetworkError } from '../../../src-main/core/nadeo/http/errors.ts';
import { StoreError } from '../../../src-main/core/store/errors.ts';

describe('dispatch', () => {
  it('names the field that failed validation', async () => {
    const result = await dispatch({} as Handlers, 'watchlists.addPlayers', { list: 'L', players: [{ accountId: '' }] });
    expect(result).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(!result.ok && result.error.message).toBe("Player 1's account ID is empty.");
  });

  it('treats a missing input as an empty object', async () => {
    const handlers = { 'watchlists.list': async () => [] } as unknown as Handlers;
    expect(await dispatch(handlers, 'watchlists.list', undefined)).toEqual({ ok: true, value: [] });
  });
});

describe('error values', () => {
  it('keep the service and core codes players can act on', () => {
    expect(toErrorValue(new ServiceError('busy', 'A sync is running.', true))).toEqual({ code: 'busy', message: 'A sync is running.', retryable: true });
    expect(toErrorValue(new AuthError('Invalid credentials.', 401))).toMatchObject({ code: 'auth_failed', message: 'Invalid credentials.' });
    expect(toErrorValue(new NetworkError('socket hang up'))).toMatchObject({ code: 'offline', retryable: true });
    expect(toErrorValue(new StoreError('CONFLICT', 'a list named "A" already exists'))).toEqual({ code: 'conflict', message: 'A list named "A" already exists.' });
    expect(toErrorValue(Object.assign(new Error('fetch failed'), { cause: { code: 'ECONNREFUSED' } }))).toMatchObject({ code: 'offline' });
    expect(toErrorValue('weird')).toEqual({ code: 'internal', message: 'weird' });
  });

  it('a write that meets read-only media is read_only, whether the service or SQLite refused it', () => {
    expect(toErrorValue(Object.assign(new Error('attempt to write a readonly database'), { code: 'SQLITE_READONLY' }))).toMatchObject({ code: 'read_only' });
    expect(toErrorValue(Object.assign(new Error('read-only file system'), { code: 'EROFS' }))).toMatchObject({ code: 'read_only' });
  });
});
