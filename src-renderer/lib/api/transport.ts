// What the renderer holds to talk to main, whichever way it goes (api.ts picks the preload's IPC or the HTTP bridge).
import type { Api } from '../../../src-main/contract/index.ts';

/** The contract's Api plus what only the renderer cares about: which transport, and whether it is connected. */
export interface Transport extends Api {
  readonly kind: 'ipc' | 'http';
  /** Browser mode: told when the page loses or regains its server. */
  onConnection(listener: (connected: boolean) => void): () => void;
}
