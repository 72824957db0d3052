// The renderer's one door to main: the preload's IPC in the desktop app, the HTTP bridge in a browser.
import type { PreloadBridge } from '../../../src-main/contract/index.ts';
import { httpApi, takeBridgeToken } from './http.ts';
import { ipcApi } from './ipc.ts';
import type { Transport } from './transport.ts';

declare global {
  interface Window {
    trackwatch?: PreloadBridge;
  }
}

export function createApi(): Transport {
  if (window.trackwatch) return ipcApi(window.trackwatch);
  return httpApi(window.location.origin, takeBridgeToken());
}
