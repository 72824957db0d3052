// Browser mode: commands are POSTs, events an SSE stream read with fetch (so the token stays in a header).
import type { Result } from '../../../src-main/contract/index.ts';
import { ApiError } from './errors.ts';
import type { Transport } from './transport.ts';

const TOKEN_KEY = 'trackwatch.token';

/** The token arrives once in the URL's fragment (never sent to a server, never in a log); keep it for reloads. */
export function takeBridgeToken(): string {
  const match = /(?:^#|&)token=([A-Za-z0-9_-]+)/.exec(window.location.hash);
  if (match?.[1]) {
    sessionStorage.setItem(TOKEN_KEY, match[1]);
    history.replaceState(null, '', window.location.pathname + '#/');
    return match[1];
  }
  return sessionStorage.getItem(TOKEN_KEY) ?? '';
}

type Listener = (payload: unknown) => void;

/** Reads `event:`/`data:` blocks from an SSE body. */
export function parseSseChunk(buffer: string): { events: { name: string; data: string }[]; rest: string } {
  const events: { name: string; data: string }[] = [];
  const blocks = buffer.split('\n\n');
  const rest = blocks.pop() ?? '';
  for (const block of blocks) {
    let name = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) name = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).trimStart());
    }
    if (data.length > 0) events.push({ name, data: data.join('\n') });
  }
  return { events, rest };
}

export function httpApi(origin: string, token: string): Transport {
  const listeners = new Map<string, Set<Listener>>();
  const connection = new Set<(connected: boolean) => void>();
  let streaming = false;
  const start = (): void => {
    if (streaming) return;
    streaming = true;
    void stream();
  };
  const setConnected = (connected: boolean): void => {
    for (const listener of connection) listener(connected);
  };

  const deliver = (name: string, payload: unknown): void => {
    for (const listener of listeners.get(name) ?? []) listener(payload);
  };

  async function stream(): Promise<void> {
    for (;;) {
      try {
        const response = await fetch(`${origin}/api/events`, { headers: { Authorization: `Bearer ${token}`, Accept: 'text/event-stream' } });
        if (!response.ok || !response.body) throw new Error(`events: ${response.status}`);
        setConnected(true);
        const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
        let buffer = '';
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          const parsed = parseSseChunk(buffer + value);
          buffer = parsed.rest;
          for (const event of parsed.events) deliver(event.name, JSON.parse(event.data));
        }
      } catch {
        // The server stopped or restarts: say so, and try again shortly.
      }
      setConnected(false);
      await new Promise((resolve) => setTimeout(resolve, 2000));
    }
  }

  return {
    kind: 'http',
    async invoke(name, input) {
      let response: Response;
      try {
        response = await fetch(`${origin}/api/invoke`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${token}` },
          body: JSON.stringify({ name, input }),
        });
      } catch {
        throw new ApiError({ code: 'offline', message: 'The Trackwatch server is not answering. Is `trackwatch serve` still running?', retryable: true });
      }
      if (response.status === 401 || response.status === 403) {
        throw new ApiError({ code: 'forbidden', message: 'This page has no valid token. Open the URL `trackwatch serve` printed.' });
      }
      const result = (await response.json()) as Result<never>;
      if (!result.ok) throw new ApiError(result.error);
      return result.value;
    },
    on(name, listener) {
      let set = listeners.get(name);
      if (!set) listeners.set(name, (set = new Set()));
      set.add(listener as Listener);
      start();
      return () => set.delete(listener as Listener);
    },
    onConnection(listener) {
      connection.add(listener);
      start();
      return () => connection.delete(listener);
    },
  };
}
