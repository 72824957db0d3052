// A phase run alone: a context over a store and a client the test builds (the emulator's, or a stub), as the engine
// builds it for a stored run (core/sync/context.ts).
import type { NadeoClient } from '../../../../src-main/core/nadeo/index.ts';
import type { Store } from '../../../../src-main/core/store/index.ts';
import { createContext, type SyncContext } from '../../../../src-main/core/sync/context.ts';
import { RequestEventHub } from '../../../../src-main/core/sync/run-requests.ts';
import type { SyncDeps, SyncOptions } from '../../../../src-main/core/sync/types.ts';

/** A client whose every method the test did not give fails the test when called. */
export function stubClient(methods: Partial<NadeoClient> = {}): NadeoClient {
  const refuse = (name: string) => () => {
    throw new Error(`the phase called client.${name}, which this test did not expect`);
  };
  const names = ['getMapsByUid', 'getMapsById', 'getRecords', 'download', 'getDisplayNames', 'testLogin', 'close'] as const;
  return {
    ...Object.fromEntries(names.map((n) => [n, refuse(n)])),
    stats: () => ({ requests: 0, retries: 0, uriTooLong: 0, byRoute: {} }),
    // Who reads the records is not known, as before the first login.
    viewer: () => undefined,
    ...methods,
  } as NadeoClient;
}

export interface PhaseContextInput {
  store: Store;
  client?: NadeoClient;
  dataDir?: string;
  deps?: Partial<SyncDeps>;
  options?: SyncOptions;
  /** The requests the run has sent so far (none by default). */
  requests?: () => number;
}

/** A context for a new run of the store, as the engine makes one (its run row stored, nothing done yet). */
export function phaseContext(o: PhaseContextInput): SyncContext {
  const options = o.options ?? {};
  const runId = o.store.syncRuns.start(options.list);
  const deps: SyncDeps = { store: o.store, client: o.client ?? stubClient(), requestEvents: new RequestEventHub(), dataDir: o.dataDir ?? '/nonexistent', ...o.deps };
  return createContext(deps, options, { runId, requests: o.requests ?? (() => 0) });
}
