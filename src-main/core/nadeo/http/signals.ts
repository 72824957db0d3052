// AbortSignal helpers shared by the layers.
import { AbortError } from './errors.ts';

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError();
}

/** Resolves like `promise`, but rejects with AbortError as soon as `signal` aborts; the promise itself runs on. */
export function raceSignal<T>(promise: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) {
    promise.catch(() => {});
    return Promise.reject(new AbortError());
  }
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new AbortError());
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** A signal that aborts when any of `signals` does; `dispose` detaches it so long-lived parents do not leak listeners. */
export function linkSignals(...signals: (AbortSignal | undefined)[]): { signal: AbortSignal; abort: () => void; dispose: () => void } {
  const controller = new AbortController();
  const cleanups: (() => void)[] = [];
  for (const s of signals) {
    if (!s) continue;
    if (s.aborted) {
      controller.abort(s.reason);
      break;
    }
    const onAbort = () => controller.abort(s.reason);
    s.addEventListener('abort', onAbort, { once: true });
    cleanups.push(() => s.removeEventListener('abort', onAbort));
  }
  return {
    signal: controller.signal,
    abort: () => controller.abort(new AbortError()),
    dispose: () => {
      for (const c of cleanups) c();
    },
  };
}
