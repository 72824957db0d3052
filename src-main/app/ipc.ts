// The IPC door: one invoke channel, one event channel, the sender checked before anything is read.
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import type { Handlers } from '../contract/commands.ts';
import { IPC_EVENT_CHANNEL, IPC_INVOKE_CHANNEL } from '../contract/names.ts';
import { errorResult } from '../contract/result.ts';
import type { Result } from '../contract/result.ts';
import { dispatch } from '../service/dispatch.ts';
import type { EventHub } from '../service/events.ts';
import { isTrustedSender } from './window.ts';
import type { Origin } from './window.ts';

export async function handleInvoke(handlers: Handlers, origin: Origin, event: Pick<IpcMainInvokeEvent, 'senderFrame'>, name: unknown, input: unknown): Promise<Result<unknown>> {
  if (!isTrustedSender(event.senderFrame, origin)) return errorResult('forbidden', 'This frame may not talk to Trackwatch.');
  return dispatch(handlers, name, input);
}

/** Registers the invoke handler; returns the function that removes it. */
export function registerIpc(ipcMain: IpcMain, handlers: Handlers, origin: Origin): () => void {
  ipcMain.handle(IPC_INVOKE_CHANNEL, (event, name: unknown, input: unknown) => handleInvoke(handlers, origin, event, name, input));
  return () => ipcMain.removeHandler(IPC_INVOKE_CHANNEL);
}

/** Sends every event to the window, if it is still there and still showing our page. */
export function forwardEvents(hub: EventHub, contents: () => WebContents | undefined, origin: Origin): () => void {
  return hub.subscribe((name, payload) => {
    const target = contents();
    if (!target || target.isDestroyed() || !origin.isOwn(target.getURL())) return;
    target.send(IPC_EVENT_CHANNEL, name, payload);
  });
}
