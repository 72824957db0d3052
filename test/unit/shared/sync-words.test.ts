import { describe, expect, it } from 'vitest';
import { lastSyncWords, syncEndWords } from '../../../src-main/shared/sync-words.ts';

describe('a sync\'s end in words', () => {
  it('never calls a failed, cancelled or partial sync "synced"', () => {
    expect(lastSyncWords({ outcome: 'ok', failedMaps: 0, error: null }, '2 min ago')).toBe('synced 2 min ago');
    expect(lastSyncWords({ outcome: 'failed', failedMaps: 0, error: { code: 'offline' } }, '2 min ago')).toBe('last sync failed 2 min ago: service unreachable');
    expect(lastSyncWords({ outcome: 'cancelled', failedMaps: 0, error: null }, 'just now')).toBe('sync cancelled just now');
    expect(lastSyncWords({ outcome: 'partial', failedMaps: 3, error: { code: 'service_error' } }, '5 min ago')).toBe('partial sync 5 min ago: 3 maps failed');
    expect(lastSyncWords({ outcome: 'partial', failedMaps: 1, error: null }, '5 min ago')).toBe('partial sync 5 min ago: 1 map failed');
    expect(lastSyncWords(null, '')).toBe('never synced');
  });

  it('says the outcome alone, as the issue worded it', () => {
    expect(syncEndWords({ outcome: 'partial', failedMaps: 3, error: null })).toBe('partial: 3 maps failed');
    expect(syncEndWords({ outcome: 'failed', failedMaps: 0, error: { code: 'auth_failed' } })).toBe('failed: login refused');
    expect(syncEndWords({ outcome: 'failed', failedMaps: 0, error: { code: 'something new' } })).toBe('failed: service error');
    expect(syncEndWords({ outcome: 'partial', failedMaps: 0, error: { code: 'rate_limited' } })).toBe('partial: asked to slow down');
  });
});
