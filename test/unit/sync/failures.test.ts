// The sync's failure policy on its own: what stops a sync, what is held back, what is said once per host.
import { describe, expect, it } from 'vitest';
import { AuthError, RetryLaterError, UnreachableError } from '../../../src-main/core/nadeo/index.ts';
import { LocalFaultCode, LocalFaultError, localFault } from '../../../src-main/core/store/index.ts';
import { FailurePolicy, fatalMessage, isFatal, prefixed } from '../../../src-main/core/sync/failures.ts';
import { UNREACHABLE_AFTER_FAILURES, unreachableMessage } from '../../../src-main/core/sync/waits.ts';
import type { SyncError } from '../../../src-main/core/sync/types.ts';

function policy(cancel?: AbortSignal): { failures: FailurePolicy; said: SyncError[] } {
  const said: SyncError[] = [];
  return { failures: new FailurePolicy((e) => said.push(e), cancel), said };
}

const unreachable = (): UnreachableError => new UnreachableError('connection refused');

describe('the failure policy', () => {
  it('counts attempts too: unanswered ones in a row, a retry among them, stop the sync; any answer starts again', () => {
    const attempt = (n: number, unanswered: boolean) => ({ origin: 'http://h', method: 'GET', route: 'GET /r', status: unanswered ? 'error' as const : 503, ...(unanswered ? { unanswered: true as const } : {}), attempt: n, ms: 1 });
    const { failures, said } = policy();
    // A blip on every connection at once: first attempts only, not yet an outage.
    for (let i = 0; i < UNREACHABLE_AFTER_FAILURES + 2; i++) failures.attempted(attempt(1, true));
    expect(failures.stopping).toBe(false);
    // An error answer is an answer: the count starts again.
    failures.attempted(attempt(2, false));
    for (let i = 0; i < UNREACHABLE_AFTER_FAILURES - 1; i++) failures.attempted(attempt(2, true));
    expect(failures.stopping).toBe(false);
    failures.attempted(attempt(3, true));
    expect(failures.stopping).toBe(true);
    expect(failures.unreachable).toBe(true);
    expect(said).toEqual([{ mapId: null, message: unreachableMessage(false) }]);
    failures.attempted(attempt(4, true));
    expect(said).toHaveLength(1);
  });

  it('says an ordinary failure at once, with its map', () => {
    const { failures, said } = policy();
    failures.fail('map-1', new Error('a bad answer'));
    expect(said).toEqual([{ mapId: 'map-1', message: 'a bad answer' }]);
    expect(failures.stopping).toBe(false);
  });

  it('holds back a failure that met no answer, and says it when the service answers again', () => {
    const { failures, said } = policy();
    failures.fail('map-1', unreachable());
    expect(said).toEqual([]);
    failures.answered();
    expect(said).toEqual([{ mapId: 'map-1', message: 'connection refused' }]);
    // The count starts again after an answer: two more in a row do not reach the cut-off.
    failures.fail('map-2', unreachable());
    failures.fail('map-3', unreachable());
    expect(failures.unreachable).toBe(false);
    failures.releaseHeldBack();
    expect(said.map((e) => e.mapId)).toEqual(['map-1', 'map-2', 'map-3']);
  });

  it(`stops the sync after ${UNREACHABLE_AFTER_FAILURES} failures in a row with no answer, in one line instead of theirs`, () => {
    const { failures, said } = policy();
    for (let i = 0; i < UNREACHABLE_AFTER_FAILURES + 2; i += 1) failures.fail(`map-${i}`, unreachable());
    expect(said).toEqual([{ mapId: null, message: unreachableMessage(false) }]);
    expect(failures.unreachable).toBe(true);
    expect(failures.stopping).toBe(true);
    failures.releaseHeldBack();
    expect(said).toHaveLength(1);
  });

  it('after answers, says the service can no longer be reached', () => {
    const { failures, said } = policy();
    failures.answered();
    for (let i = 0; i < UNREACHABLE_AFTER_FAILURES; i += 1) failures.fail(null, unreachable());
    expect(said).toEqual([{ mapId: null, message: unreachableMessage(true) }]);
  });

  it('says a long wait once per host, aborts the calls to that host, and leaves the others alone', () => {
    const { failures, said } = policy();
    const waiting = failures.signalFor('core.example');
    const other = failures.signalFor('live.example');
    const wait = new RetryLaterError('https://core.example', 429, new Date('2026-12-05T14:03:00Z'));
    failures.fail('map-1', wait, 'core.example');
    failures.fail('map-2', wait, 'core.example');
    expect(said).toHaveLength(1);
    expect(said[0]!.message).toMatch(/^Nadeo's service \(core\.example\) asked Trackwatch to wait before asking again/);
    expect(failures.isWaiting('core.example')).toBe(true);
    expect(waiting.aborted).toBe(true);
    expect(other.aborted).toBe(false);
    expect(failures.stopping).toBe(false);
  });

  it('stops every call on a fatal error, keeping the first', () => {
    const { failures } = policy();
    const signal = failures.signalFor('core.example');
    const first = new AuthError('the login was refused', 401);
    failures.stopFatally(first);
    failures.stopFatally(new AuthError('again', 401));
    expect(failures.fatal).toBe(first);
    expect(signal.aborted).toBe(true);
  });

  it("follows the caller's cancel", () => {
    const cancel = new AbortController();
    const { failures } = policy(cancel.signal);
    const signal = failures.signalFor('core.example');
    cancel.abort();
    expect(failures.stopping).toBe(true);
    expect(signal.aborted).toBe(true);
  });

  it('knows the fatal errors, says a local fault in its own words, and prefixes what the sync was doing', () => {
    const full = new LocalFaultError(LocalFaultCode.DISK_FULL, 'ENOSPC', 'the disk is full; free some space and sync again');
    expect(isFatal(full)).toBe(true);
    expect(isFatal(new AuthError('no', 401))).toBe(true);
    expect(isFatal(new Error('a bad answer'))).toBe(false);
    expect(fatalMessage(full)).toBe(full.message);
    const disk = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
    expect(isFatal(disk)).toBe(true);
    expect(fatalMessage(disk)).toBe(localFault(disk)!.message);
    expect(fatalMessage(disk)).not.toBe(disk.message);
    expect((prefixed('could not look up 2 map UID(s)', new Error('garbage')) as Error).message).toBe('could not look up 2 map UID(s): garbage');
    // A wait or a network failure keeps its kind, so the policy still reads it.
    const gone = unreachable();
    expect(prefixed('could not look up 2 map UID(s)', gone)).toBe(gone);
  });
});
