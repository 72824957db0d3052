// A run's own requests: counted from the request events that fire inside the run's async scope, so a request made
// meanwhile by someone else on the same clients (the window's thumbnail, a name look-up) is not the sync's. A
// client's onRequest fires in the async context of the call that sent the request (core/nadeo/http.ts), which is
// what AsyncLocalStorage follows.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { RequestEvent } from '../nadeo/index.ts';
import type { RequestEvents } from './types.ts';

const scope = new AsyncLocalStorage<RunRequests | undefined>();

/**
 * The request events of a connection's clients, to whoever listens: pass `emit` as each client's onRequest (beside
 * any other listener) and the hub as SyncDeps.requestEvents.
 */
export class RequestEventHub implements RequestEvents {
  readonly #listeners = new Set<(event: RequestEvent) => void>();

  readonly emit = (event: RequestEvent): void => {
    for (const listener of this.#listeners) listener(event);
  };

  subscribe(listener: (event: RequestEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** How many listen now (a finished run no longer does). */
  get listening(): number {
    return this.#listeners.size;
  }
}

export class RunRequests {
  #count = 0;
  readonly #observers: ((event: RequestEvent) => void)[] = [];
  readonly #unsubscribe: () => void;

  /** Counts the `events` sent from within `within` (the connection's; see SyncDeps.requestEvents). */
  constructor(events: RequestEvents) {
    this.#unsubscribe = events.subscribe((event) => {
      if (scope.getStore() !== this) return;
      this.#count += 1;
      for (const observe of this.#observers) observe(event);
    });
  }

  /** Hands each of the run's own request events (every attempt, retries included) to `observer` as well. */
  observe(observer: (event: RequestEvent) => void): void {
    this.#observers.push(observer);
  }

  get count(): number {
    return this.#count;
  }

  /** Runs the sync in the run's scope: every request sent from inside it, however deep, is the run's. */
  within<T>(run: () => Promise<T>): Promise<T> {
    return scope.run(this, run);
  }

  /**
   * Wraps a caller's hook so that it runs outside the run's scope: what the hook starts (a notification that fetches
   * a thumbnail) is not the sync's request.
   */
  outside<A>(hook: ((arg: A) => void) | undefined): ((arg: A) => void) | undefined {
    return hook && ((arg) => scope.run(undefined, hook, arg));
  }

  /** Stops listening: a finished run counts nothing more. */
  close(): void {
    this.#unsubscribe();
  }
}
