// Main → renderer events, fanned out to every window (Electron) or stream (browser mode).
import { events } from '../contract/events.ts';
import type { EventPayload } from '../contract/events.ts';
import type { EventName } from '../contract/names.ts';

export type EventListener = (name: EventName, payload: unknown) => void;

export interface EventHub {
  emit<E extends EventName>(name: E, payload: EventPayload<E>): void;
  subscribe(listener: EventListener): () => void;
}

export function createEventHub(onInvalid: (name: EventName, problem: string) => void = () => {}): EventHub {
  const listeners = new Set<EventListener>();
  return {
    emit(name, payload) {
      // Checked on the way out too: a malformed event is a bug here, not something the page should guess at.
      const parsed = events[name].safeParse(payload);
      if (!parsed.success) {
        onInvalid(name, parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; '));
        return;
      }
      for (const listener of listeners) {
        try {
          listener(name, parsed.data);
        } catch {
          // One broken listener (a closed window) must not stop the others.
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
