import { describe, expect, it, vi } from 'vitest';

const captured = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  invoked: [] as unknown[][],
  listeners: new Map<string, (...args: unknown[]) => void>(),
}));

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, api: unknown) => captured.exposed.set(key, api) },
  ipcRenderer: {
    invoke: async (...args: unknown[]) => {
      captured.invoked.push(args);
      return { ok: true, value: 'from main' };
    },
    on: (channel: string, listener: (...args: unknown[]) => void) => captured.listeners.set(channel, listener),
  },
}));

await import('../../../src-main/app/preload.ts');
const { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } = await import('../../../src-main/contract/names.ts');

interface Exposed {
  invoke(name: unknown, input: unknown): Promise<unknown>;
  on(name: unknown, listener: unknown): () => void;
}

const api = captured.exposed.get('trackwatch') as Exposed;

describe('the preload', () => {
  it('exposes one object with two functions, nothing else', () => {
    expect([...captured.exposed.keys()]).toEqual(['trackwatch']);
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on']);
  });

  it('forwards the contract commands on the one channel and refuses other names without asking main', async () => {
    expect(await api.invoke('watchlists.list', {})).toEqual({ ok: true, value: 'from main' });
    expect(captured.invoked).toEqual([[IPC_INVOKE_CHANNEL, 'watchlists.list', {}]]);
    expect(await api.invoke('shell.openExternal', { url: 'file:///' })).toMatchObject({ ok: false, error: { code: 'unknown_command' } });
    expect(captured.invoked).toHaveLength(1);
  });

  it('hands listeners the payload only, never the IPC event, and only for contract events', () => {
    const got: unknown[][] = [];
    const off = api.on('sync.progress', (...args: unknown[]) => got.push(args));
    expect(api.on('anything.else', () => got.push(['nope']))).toBeTypeOf('function');
    const relay = captured.listeners.get(IPC_EVENT_CHANNEL)!;
    const ipcEvent = { sender: { send: () => {} }, senderFrame: {} };
    relay(ipcEvent, 'sync.progress', { done: 1 });
    relay(ipcEvent, 'anything.else', { done: 2 });
    expect(got).toEqual([[{ done: 1 }]]);
    off();
    relay(ipcEvent, 'sync.progress', { done: 3 });
    expect(got).toHaveLength(1);
  });
});
