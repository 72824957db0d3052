// The window's backend as tests drive it: commands sent through dispatch (as the IPC handler and the HTTP bridge
// send them), the events it emits, and a browser-mode host with its secrets kept in memory.
import type { CommandInput, CommandName, CommandOutput, EventName, EventPayload } from '../../src-main/contract/index.ts';
import type { ErrorValue } from '../../src-main/contract/result.ts';
import { dispatch } from '../../src-main/service/dispatch.ts';
import { createHandlers } from '../../src-main/service/handlers/index.ts';
import { memorySecretStore } from '../../src-main/service/secrets.ts';
import type { ServiceHost, TrackwatchService } from '../../src-main/service/service.ts';
import { DEMO_MAX_RPS } from '../../src-main/shared/rate-policy.ts';

export interface ServiceCaller {
  /** Sends a command; its answer, or an Error naming the command and the error value it got. */
  call<N extends CommandName>(name: N, input: CommandInput<N>): Promise<CommandOutput<N>>;
  /** Sends a command that must be refused (inputs the contract refuses included); the error value. */
  fail(name: CommandName, input: unknown): Promise<ErrorValue>;
}

/** A caller of `service`'s commands; a function for a service made later (in a beforeAll). */
export function serviceCaller(service: TrackwatchService | (() => TrackwatchService)): ServiceCaller {
  const current = typeof service === 'function' ? service : () => service;
  const made = new WeakMap<TrackwatchService, ReturnType<typeof createHandlers>>();
  const handlers = () => {
    const s = current();
    let h = made.get(s);
    if (!h) made.set(s, (h = createHandlers(s)));
    return h;
  };
  return {
    async call(name, input) {
      const result = await dispatch(handlers(), name, input);
      if (!result.ok) throw new Error(`${name}: ${result.error.code}: ${result.error.message}`);
      return result.value as never;
    },
    async fail(name, input) {
      const result = await dispatch(handlers(), name, input);
      if (result.ok) throw new Error(`${name} should have failed`);
      return result.error;
    },
  };
}

export interface EventLog {
  /** Every event since the log started, in order. */
  readonly seen: { name: EventName; payload: unknown }[];
  events<E extends EventName>(name: E): EventPayload<E>[];
  /** The count-th event of this name since the log started (1 is the first): now, or when it comes. */
  nth<E extends EventName>(name: E, count: number): Promise<EventPayload<E>>;
  /** The first event of this name since the log started that matches: now, or when it comes. */
  first<E extends EventName>(name: E, match: (payload: EventPayload<E>) => boolean): Promise<EventPayload<E>>;
}

/** Records what `service` tells the window from now on. */
export function eventLog(service: TrackwatchService): EventLog {
  const seen: { name: EventName; payload: unknown }[] = [];
  const events = <E extends EventName>(name: E): EventPayload<E>[] => seen.filter((e) => e.name === name).map((e) => e.payload as EventPayload<E>);
  const first = <E extends EventName>(name: E, match: (payload: EventPayload<E>) => boolean): Promise<EventPayload<E>> => {
    const found = events(name).find(match);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise((resolve) => {
      const stop = service.events.subscribe((got, payload) => {
        if (got !== name || !match(payload as EventPayload<E>)) return;
        stop();
        resolve(payload as EventPayload<E>);
      });
    });
  };
  service.events.subscribe((name, payload) => seen.push({ name, payload }));
  return {
    seen,
    events,
    first,
    // The log's own listener was added first, so when first's listener hears an event it is already in `seen`.
    nth: (name, count) => first(name, () => events(name).length >= count).then(() => events(name)[count - 1]!),
  };
}

/** A browser-mode host with its secrets in memory; `extra` adds what a test watches (notify, nextDataDir). */
export function testHost(extra: Partial<ServiceHost> = {}): ServiceHost {
  return { shell: 'browser', platform: 'linux', secrets: memorySecretStore(), ...extra };
}


/**
 * Paces `service`'s client at the demo's rate against an emulator, the way the demo paces its own: the window's
 * `settings.update` stops at Nadeo's ceiling (2/s), which left syncs of a few maps waiting seconds on the limiter.
 * Still paced (20 ms a request past the burst of 2). Refused against the real services.
 */
export async function paceForEmulator(service: TrackwatchService): Promise<void> {
  if (service.folder.main.isRealService) throw new Error('paceForEmulator: this folder talks to the real services');
  service.settings.set('maxRps', DEMO_MAX_RPS);
  await service.reconfigureMain();
  if (service.settings.maxRps !== DEMO_MAX_RPS) throw new Error(`paceForEmulator: the rate kept is ${service.settings.maxRps}`);
}
