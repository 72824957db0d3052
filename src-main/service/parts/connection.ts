// What the window's banner says about the service: online, offline (with why) or not known yet, from the answers
// (or their absence) to the requests the clients make.
import type { z } from 'zod';
import type * as s from '../../contract/schemas.ts';
import type { RequestEvent } from '../../core/nadeo/index.ts';
import type { EventHub } from '../events.ts';

export type ConnectionStatus = z.output<typeof s.ConnectionStatus>;

const UNKNOWN: ConnectionStatus = { state: 'unknown', message: null, checkedAt: null };

export class Connection {
  readonly #events: EventHub;
  readonly #now: () => Date;
  /** Whether a cancel is cutting the sync's requests short: those get no answer because we stopped asking. */
  readonly #cancelling: () => boolean;
  #status: ConnectionStatus = UNKNOWN;

  constructor(o: { events: EventHub; now: () => Date; cancelling: () => boolean }) {
    this.#events = o.events;
    this.#now = o.now;
    this.#cancelling = o.cancelling;
  }

  get status(): ConnectionStatus {
    return this.#status;
  }

  /** Every request the client makes says whether the service answered: the banner follows that. */
  readonly observe = (event: RequestEvent): void => {
    if (event.status === 'error' && this.#cancelling()) return;
    if (event.status === 'error') this.markOffline('The last request got no answer.');
    else this.#set({ state: 'online', message: null, checkedAt: this.#now().toISOString() });
  };

  markOffline(message: string): void {
    this.#set({ state: 'offline', message, checkedAt: this.#now().toISOString() });
  }

  /** Another service (the demo's emulator, the real one): nothing is known of it yet. */
  reset(): void {
    this.#set(UNKNOWN);
  }

  #set(next: ConnectionStatus): void {
    const changed = next.state !== this.#status.state || next.message !== this.#status.message;
    this.#status = next;
    if (changed) this.#events.emit('status.changed', next);
  }
}
