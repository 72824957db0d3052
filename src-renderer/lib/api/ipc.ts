import type { PreloadBridge, Result } from '../../../src-main/contract/index.ts';
import { ApiError } from './errors.ts';
import type { Transport } from './transport.ts';

export function ipcApi(bridge: PreloadBridge): Transport {
  return {
    kind: 'ipc',
    async invoke(name, input) {
      const result = (await bridge.invoke(name, input)) as Result<never>;
      if (!result.ok) throw new ApiError(result.error);
      return result.value;
    },
    on(name, listener) {
      return bridge.on(name, listener as (payload: unknown) => void);
    },
    // Main and its window live and die together: the IPC link never drops on its own.
    onConnection: () => () => {},
  };
}
