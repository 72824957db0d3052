// The sync's failure policy: which errors stop it (fatal ones), which are held back (a network failure, said only if
// the service answers again), when it gives up on a service that cannot be reached (UNREACHABLE_AFTER_FAILURES in a
// row), and which hosts it stops asking because they asked for a longer wait than it makes (waits.ts).
import { AuthError, ConfigError, type RequestEvent } from '../nadeo/index.ts';
import { localFault } from '../store/errors.ts';
import type { SyncError } from './types.ts';
import { longWaitOf, isUnreachable, UNREACHABLE_AFTER_FAILURES, unreachableMessage, waitMessage } from './waits.ts';

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * Errors no other map or retry can get past: the whole sync stops and says why. Bad credentials or settings, and a
 * local fault (a full disk, a read-only or damaged database): every next write would fail the same way.
 */
export function isFatal(error: unknown): boolean {
  return error instanceof AuthError || error instanceof ConfigError || localFault(error) !== undefined;
}

/** A fatal error as the player reads it: a local fault in its store words (what to do), others as they are. */
export function fatalMessage(error: unknown): string {
  return localFault(error)?.message ?? messageOf(error);
}

/** An error with what the sync was doing in front of its message; the error's kind (and wait) stays readable. */
export function prefixed(what: string, error: unknown): unknown {
  if (longWaitOf(error) || isUnreachable(error)) return error;
  return new Error(`${what}: ${messageOf(error)}`, { cause: error });
}

/** Thrown out of a phase when a fatal error stopped the workers; the error itself is FailurePolicy.fatal. */
export class FatalSyncError extends Error {}

export class FailurePolicy {
  /**
   * The sync's signal: the caller's cancel, or the policy's own stop (a fatal error, a service that cannot be
   * reached), which ends every worker as a cancel would but is reported as a failure.
   */
  readonly signal: AbortSignal;
  /** The fatal error that stopped the workers, when one did. */
  fatal: unknown;
  /** The service could not be reached: said in one line, and the sync stopped. */
  unreachable = false;
  readonly #stop = new AbortController();
  readonly #record: (error: SyncError) => void;
  // Answers the service gave (anything stored from it), and network failures in a row with no answer between.
  #answers = 0;
  #unansweredInARow = 0;
  // Attempts (retries included) in a row that met no answer, and whether a retry was among them.
  #unansweredAttempts = 0;
  #retryUnanswered = false;
  // Network failures held back until the service answers again: if it does not, one line says so instead.
  #heldBack: SyncError[] = [];
  // Hosts that asked for a wait longer than the sync will make (Retry-After): nothing more is asked of them.
  readonly #waiting = new Map<string, string>();
  // Aborts the calls to a host that asked for a long wait; the sync's own signal (cancel, fatal) aborts them all.
  readonly #hostStops = new Map<string, AbortController>();

  constructor(record: (error: SyncError) => void, cancel?: AbortSignal) {
    this.#record = record;
    this.signal = cancel ? AbortSignal.any([cancel, this.#stop.signal]) : this.#stop.signal;
  }

  /** Whether the sync is being stopped: cancelled, or stopped by a fatal error or an unreachable service. */
  get stopping(): boolean {
    return this.signal.aborted;
  }

  /** The service answered: the failures held back were one-offs after all, and are said. */
  answered(): void {
    this.#answers += 1;
    this.#unansweredInARow = 0;
    this.releaseHeldBack();
  }

  /** Says the failures still held back (the end of the sync, when the service never answered again). */
  releaseHeldBack(): void {
    for (const e of this.#heldBack) this.#record(e);
    this.#heldBack = [];
  }

  /** A call failed: a long wait stops its host, a network failure counts towards "cannot be reached", others are said. */
  fail(mapId: string | null, error: unknown, host?: string): void {
    const wait = longWaitOf(error, host);
    if (wait) {
      // One line per host, however many calls were turned back.
      if (!this.#waiting.has(wait.host)) {
        this.#waiting.set(wait.host, wait.retryAt);
        this.#record({ mapId: null, message: waitMessage(wait) });
        this.#hostStops.get(wait.host)?.abort();
      }
      return;
    }
    if (isUnreachable(error)) {
      this.#unansweredInARow += 1;
      if (this.#unansweredInARow >= UNREACHABLE_AFTER_FAILURES) {
        this.#giveUp();
        return;
      }
      // Held back until the service answers again: if it never does, the one line above says it all.
      this.#heldBack.push({ mapId, message: messageOf(error) });
      return;
    }
    this.#record({ mapId, message: messageOf(error) });
  }

  /**
   * One attempt of the run's (RunRequests.observe): a stalled service costs a whole deadline per attempt, and a call
   * makes up to its retry policy's attempts before it fails, so counting failed calls alone let a service that
   * accepts and never answers hold a sync for minutes. UNREACHABLE_AFTER_FAILURES attempts in a row with no answer,
   * a retry among them (so one blip on every connection at once is not taken for an outage), stop the sync as
   * failed calls do. Any answer, an error answer included, starts the count again.
   */
  attempted(event: RequestEvent): void {
    if (!event.unanswered) {
      this.#unansweredAttempts = 0;
      this.#retryUnanswered = false;
      return;
    }
    this.#unansweredAttempts += 1;
    if (event.attempt > 1) this.#retryUnanswered = true;
    if (this.#unansweredAttempts >= UNREACHABLE_AFTER_FAILURES && this.#retryUnanswered) this.#giveUp();
  }

  /** The service cannot be reached: one line, and every worker stops (what was stored stays). */
  #giveUp(): void {
    if (this.unreachable) return;
    this.unreachable = true;
    this.#heldBack = [];
    this.#record({ mapId: null, message: unreachableMessage(this.#answers > 0) });
    this.#stop.abort();
  }

  /** A fatal error: every worker stops, and the sync ends failed saying it. */
  stopFatally(error: unknown): void {
    this.fatal ??= error;
    this.#stop.abort();
  }

  /** Whether the host asked for a longer wait than the sync makes: nothing more is asked of it. */
  isWaiting(host: string): boolean {
    return this.#waiting.has(host);
  }

  /** The signal for a call to `host`: aborted by the sync's own, and by a long wait that host asks for. */
  signalFor(host: string): AbortSignal {
    let stopHost = this.#hostStops.get(host);
    if (!stopHost) this.#hostStops.set(host, (stopHost = new AbortController()));
    return AbortSignal.any([this.signal, stopHost.signal]);
  }
}
