// The renderer's one door to main: the preload's IPC in the desktop app, the HTTP bridge in a browser.
import type { Api, PreloadBridge } from '../../../src-main/contract/index.ts';
import { httpApi, takeBridgeToken } from './http.ts';
import { ipcApi } from './ipc.ts';

export { ApiError, messageOf } from './errors.ts';

/** The contract's Api plus what only the renderer cares about: which transport, and whether it is connected. */
export interface Transport extends Api {
  readonly kind: 'ipc' | 'http';
  /** Browser mode: told when the page loses or regains its server. */
  onConnection(listener: (connected: boolean) => void): () => void;
}

declare global {
  interface Window {
    trackwatch?: PreloadBridge;
  }
}

export function createApi(): Transport {
  if (window.trackwatch) return ipcApi(window.trackwatch);
  return httpApi(window.location.origin, takeBridgeToken());
}
