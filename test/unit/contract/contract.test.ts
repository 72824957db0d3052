import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES, EVENT_NAMES, commands, events, isCommandName, schemas } from '../../../src-main/contract/index.ts';
import { errorResult, okResult } from '../../../src-main/contract/result.ts';

describe('the contract', () => {
  it('declares each command and event once, matching the names the preload checks', () => {
    expect(Object.keys(commands).sort()).toEqual([...COMMAND_NAMES].sort());
    expect(Object.keys(events).sort()).toEqual([...EVENT_NAMES].sort());
    expect(new Set(COMMAND_NAMES).size).toBe(COMMAND_NAMES.length);
    expect(isCommandName('constructor')).toBe(false);
    expect(isCommandName('__proto__')).toBe(false);
  });

  it('bounds what the renderer may send', () => {
    const addMaps = commands['watchlists.addMaps'].input;
    expect(addMaps.safeParse({ list: 'L', refs: Array.from({ length: 5000 }, (_, i) => `uid${i}`) }).success).toBe(true);
    expect(addMaps.safeParse({ list: 'L', refs: Array.from({ length: 5001 }, (_, i) => `uid${i}`) }).success).toBe(false);
    expect(addMaps.safeParse({ list: 'L', refs: ['x'.repeat(501)] }).success).toBe(false);
    expect(commands['watchlists.create'].input.safeParse({ name: '   ' }).success).toBe(false);
    expect(schemas.MaxRps.safeParse(5).success).toBe(false);
    expect(schemas.ScheduledSync.safeParse({ enabled: true, everyMinutes: 14 }).success).toBe(false);
    expect(schemas.ScheduledSync.safeParse({ enabled: true, everyMinutes: 15 }).success).toBe(true);
    expect(commands['settings.update'].input.safeParse({ theme: 'dark', password: 'x' }).success).toBe(false);
    expect(commands['sync.start'].input.safeParse({ list: 'L', everything: true }).success).toBe(false);
  });

  it('trims what players type', () => {
    expect(commands['watchlists.create'].input.parse({ name: '  Winter  ' })).toEqual({ name: 'Winter' });
    expect(commands['setup.connect'].input.parse({ login: ' me ', password: ' pw ', contact: ' me@x.io ' })).toEqual({ login: 'me', password: ' pw ', contact: 'me@x.io' });
  });

  it('carries results as values', () => {
    expect(okResult(1)).toEqual({ ok: true, value: 1 });
    expect(errorResult('busy', 'wait', true)).toEqual({ ok: false, error: { code: 'busy', message: 'wait', retryable: true } });
    expect(errorResult('busy', 'wait')).toEqual({ ok: false, error: { code: 'busy', message: 'wait' } });
  });
});
