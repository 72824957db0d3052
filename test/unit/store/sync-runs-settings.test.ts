import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src-main/core/store/index.ts';
import { mapId, memoryStore } from './fixtures.ts';

let store: Store;
beforeEach(async () => {
  store = await memoryStore();
  store.watchlists.create('Weekly');
});
afterEach(() => store.close());

describe('sync runs', () => {
  it('logs a run from start to finish with its counts and per-map errors', () => {
    const id = store.syncRuns.start('weekly', '2025-01-01T00:00:00.000Z');
    expect(store.syncRuns.get(id)).toMatchObject({ list: 'Weekly', outcome: 'running', finishedAt: null, counts: { maps: 0 } });
    store.syncRuns.addError(id, mapId(1), 'HTTP 500 from the records lookup');
    store.syncRuns.addError(id, null, 'display names unavailable');
    store.syncRuns.finish(id, 'partial', { maps: 10, requests: 12, records: 200, newPbs: 3, replays: 2 }, '2025-01-01T00:05:00.000Z');
    expect(store.syncRuns.get(id)).toEqual({
      id, list: 'Weekly', startedAt: '2025-01-01T00:00:00.000Z', finishedAt: '2025-01-01T00:05:00.000Z', outcome: 'partial',
      counts: { maps: 10, requests: 12, records: 200, newPbs: 3, replays: 2 },
      errors: [
        { mapId: mapId(1), message: 'HTTP 500 from the records lookup', at: expect.any(String) },
        { mapId: null, message: 'display names unavailable', at: expect.any(String) },
      ],
    });
  });

  it('tells the last run, per list or overall, and lists runs newest first', () => {
    const a = store.syncRuns.start('Weekly');
    const b = store.syncRuns.start();
    expect(store.syncRuns.last()?.id).toBe(b);
    expect(store.syncRuns.last('Weekly')?.id).toBe(a);
    expect(store.syncRuns.last()?.list).toBeNull();
    expect(store.syncRuns.list(5).map((r) => r.id)).toEqual([b, a]);
    expect(store.syncRuns.list(1)).toHaveLength(1);
  });

  it('follows a renamed list', () => {
    const id = store.syncRuns.start('Weekly');
    store.watchlists.rename('Weekly', 'Weekly Shorts');
    expect(store.syncRuns.get(id)?.list).toBe('Weekly Shorts');
  });

  it('refuses unknown runs, lists and outcomes', () => {
    expect(() => store.syncRuns.finish(42, 'ok')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(() => store.syncRuns.addError(42, null, 'x')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    expect(() => store.syncRuns.start('Nope')).toThrow(expect.objectContaining({ code: 'NOT_FOUND' }));
    const id = store.syncRuns.start();
    expect(() => store.syncRuns.finish(id, 'running' as 'ok')).toThrow(/ends ok, partial, failed or cancelled/);
  });
});

describe('settings', () => {
  it('keeps JSON values by key, and removes them', () => {
    expect(store.settings.get('theme')).toBeUndefined();
    store.settings.set('theme', 'dark');
    store.settings.set('scheduledSync', { enabled: true, everyMinutes: 60 });
    store.settings.set('theme', 'light');
    expect(store.settings.get('theme')).toBe('light');
    expect(store.settings.all()).toEqual({ scheduledSync: { enabled: true, everyMinutes: 60 }, theme: 'light' });
    store.settings.set('theme', undefined);
    expect(store.settings.get('theme')).toBeUndefined();
  });

  it.each(['password', 'oauthClientSecret', 'accessToken', 'api_key', 'refresh_token', 'Credentials'])('refuses a secret-looking key: %s', (key) => {
    expect(() => store.settings.set(key, 'x')).toThrow(/no secrets/);
  });

  it('keeps non-secret keys that merely mention one', () => {
    store.settings.set('oauthSecretStored', true);
    store.settings.set('passwordInKeychain', false);
    expect(store.settings.get('oauthSecretStored')).toBe(true);
  });

  it('keeps "me" as an account ID in lower case, read back only as a string', () => {
    expect(store.settings.me()).toBeUndefined();
    store.settings.setMe('  0A1B2C3D-0000-4000-8000-00000000BEEF ');
    expect(store.settings.me()).toBe('0a1b2c3d-0000-4000-8000-00000000beef');
    store.settings.set('me', 42);
    expect(store.settings.me()).toBeUndefined();
    store.settings.setMe(undefined);
    expect(store.settings.get('me')).toBeUndefined();
  });

  it('refuses keys that are not short names', () => {
    expect(() => store.settings.set('', 1)).toThrow(/setting key/);
    expect(() => store.settings.set('a b', 1)).toThrow(/setting key/);
  });
});
