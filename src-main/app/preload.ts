// The whole preload: two functions, the contract's names only, and never Electron's event object.
import { contextBridge, ipcRenderer } from 'electron';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL, isCommandName, isEventName } from '../contract/names.ts';

type Listener = (payload: unknown) => void;
const listeners = new Map<string, Set<Listener>>();

ipcRenderer.on(IPC_EVENT_CHANNEL, (_event, name: unknown, payload: unknown) => {
  if (!isEventName(name)) return;
  for (const listener of listeners.get(name) ?? []) listener(payload);
});

contextBridge.exposeInMainWorld('trackwatch', {
  invoke(name: unknown, input: unknown): Promise<unknown> {
    if (!isCommandName(name)) return Promise.resolve({ ok: false, error: { code: 'unknown_command', message: `Unknown command: ${String(name)}` } });
    return ipcRenderer.invoke(IPC_INVOKE_CHANNEL, name, input);
  },
  on(name: unknown, listener: unknown): () => void {
    if (!isEventName(name) || typeof listener !== 'function') return () => {};
    let set = listeners.get(name);
    if (!set) listeners.set(name, (set = new Set()));
    const callback = listener as Listener;
    set.add(callback);
    return () => {
      set.delete(callback);
    };
  },
});
