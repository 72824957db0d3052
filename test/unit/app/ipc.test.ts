import { describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ BrowserWindow: class {}, shell: { openExternal: async () => {} } }));

const { forwardEvents, handleInvoke, registerIpc } = await import('../../../src-main/app/ipc.ts');
const { appOrigin } = await import('../../../src-main/app/window.ts');
const { createEventHub } = await import('../../../src-main/service/events.ts');
const { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } = await import('../../../src-main/contract/names.ts');
import type { Handlers } from '../../../src-main/contract/commands.ts';

const origin = appOrigin();
const own = { senderFrame: { url: 'app://trackwatch/index.html#/', parent: null } } as never;

function handlers() {
  const create = vi.fn(async ({ name }: { name: string }) => ({ name, maps: 0, players: 0, lastSyncAt: null, lastSyncOutcome: null }));
  return { create, map: { 'watchlists.create': create } as unknown as Handlers };
}

describe('the invoke handler', () => {
  it('answers our own page with the handler value', async () => {
    const { create, map } = handlers();
    const result = await handleInvoke(map, origin, own, 'watchlists.create', { name: '  Winter  ' });
    expect(result).toEqual({ ok: true, value: { name: 'Winter', maps: 0, players: 0, lastSyncAt: null, lastSyncOutcome: null } });
    expect(create).toHaveBeenCalledWith({ name: 'Winter' });
  });

  it('refuses a foreign sender, an iframe and a missing frame before reading anything', async () => {
    const { create, map } = handlers();
    for (const senderFrame of [
      { url: 'https://evil.example/', parent: null },
      { url: 'app://trackwatch/index.html', parent: { url: 'app://trackwatch/index.html' } },
      null,
    ]) {
      const result = await handleInvoke(map, origin, { senderFrame } as never, 'watchlists.create', { name: 'x' });
      expect(result).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
    expect(create).not.toHaveBeenCalled();
  });

  it('refuses invalid input and unknown commands as values, never calling a handler', async () => {
    const { create, map } = handlers();
    const cases: [unknown, unknown, string][] = [
      ['watchlists.create', { name: '' }, 'invalid_input'],
      ['watchlists.create', { name: 'x'.repeat(65) }, 'invalid_input'],
      ['watchlists.create', { name: 42 }, 'invalid_input'],
      ['watchlists.create', 'not an object', 'invalid_input'],
      ['watchlists.addMaps', { list: 'L', refs: [] }, 'invalid_input'],
      ['settings.update', { scheduledSync: { enabled: true, everyMinutes: 5 } }, 'invalid_input'],
      ['settings.update', { evil: true }, 'invalid_input'],
      ['fs.readFile', { path: '/etc/passwd' }, 'unknown_command'],
      [{ toString: () => 'x' }, {}, 'unknown_command'],
    ];
    for (const [name, input, code] of cases) {
      const result = await handleInvoke(map, origin, own, name, input);
      expect(result, JSON.stringify([name, input])).toMatchObject({ ok: false, error: { code } });
    }
    expect(create).not.toHaveBeenCalled();
  });

  it('turns a thrown error into an error value with a message', async () => {
    const map = { 'watchlists.create': async () => { throw new Error('disk full'); } } as unknown as Handlers;
    expect(await handleInvoke(map, origin, own, 'watchlists.create', { name: 'x' })).toEqual({ ok: false, error: { code: 'internal', message: 'disk full' } });
  });

  it('registers on the one invoke channel and can be removed', async () => {
    const registered = new Map<string, (...args: unknown[]) => unknown>();
    const ipcMain = { handle: (channel: string, fn: (...args: unknown[]) => unknown) => registered.set(channel, fn), removeHandler: (channel: string) => registered.delete(channel) };
    const { map } = handlers();
    const remove = registerIpc(ipcMain as never, map, origin);
    expect([...registered.keys()]).toEqual([IPC_INVOKE_CHANNEL]);
    const foreign = await registered.get(IPC_INVOKE_CHANNEL)!({ senderFrame: { url: 'https://evil.example/', parent: null } }, 'watchlists.create', { name: 'x' });
    expect(foreign).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    remove();
    expect(registered.size).toBe(0);
  });
});

describe('events to the window', () => {
  const progress = { runId: 'r', list: null, phase: 'Reading records', done: 1, total: 2, newRecords: 0, startedAt: '2026-01-01T00:00:00Z', etaMs: null };

  it('go to our page, not to a destroyed window or one showing another page', () => {
    const hub = createEventHub();
    const sent: unknown[][] = [];
    let url = 'app://trackwatch/index.html';
    let destroyed = false;
    const contents = { send: (...args: unknown[]) => sent.push(args), getURL: () => url, isDestroyed: () => destroyed };
    forwardEvents(hub, () => contents as never, origin);
    hub.emit('sync.progress', progress);
    expect(sent).toEqual([[IPC_EVENT_CHANNEL, 'sync.progress', progress]]);
    url = 'https://evil.example/';
    hub.emit('sync.progress', progress);
    destroyed = true;
    url = 'app://trackwatch/index.html';
    hub.emit('sync.progress', progress);
    expect(sent).toHaveLength(1);
  });

  it('drops a malformed event instead of sending it', () => {
    const problems: string[] = [];
    const hub = createEventHub((name, problem) => problems.push(`${name}: ${problem}`));
    const sent: unknown[] = [];
    hub.subscribe((name) => sent.push(name));
    hub.emit('sync.progress', { ...progress, done: 'many' } as never);
    expect(sent).toEqual([]);
    expect(problems[0]).toMatch(/^sync.progress: done/);
  });
});
