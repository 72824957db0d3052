// A hostile HTTP server of the fault suite's own (not the emulator) on 127.0.0.1:0: each test says how it answers,
// and can wait for the moment a request has arrived instead of sleeping.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Seen {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
}

export type Answer = (req: Seen, res: ServerResponse) => void;

export interface HostileServer {
  url: string;
  requests: Seen[];
  /** How the server answers; replace it at any time. Default: 404 text. */
  answer: Answer;
  /** Resolves once the server has received its `n`-th request (1-based). */
  received(n: number): Promise<Seen>;
  close(): Promise<void>;
}

export async function startHostileServer(answer?: Answer): Promise<HostileServer> {
  const sockets = new Set<Socket>();
  const waiters: { n: number; resolve: (s: Seen) => void }[] = [];
  const server = createServer((raw, res) => {
    res.on('error', () => {});
    raw.resume();
    raw.on('end', () => {
      const url = raw.url ?? '/';
      const at = url.indexOf('?');
      const seen: Seen = {
        method: raw.method ?? 'GET',
        url,
        path: at < 0 ? url : url.slice(0, at),
        query: new URLSearchParams(at < 0 ? '' : url.slice(at + 1)),
        headers: raw.headers,
      };
      hostile.requests.push(seen);
      for (const w of waiters.filter((x) => x.n === hostile.requests.length)) w.resolve(seen);
      hostile.answer(seen, res);
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const hostile: HostileServer = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: [],
    answer: answer ?? ((_req, res) => res.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found')),
    received: (n) =>
      n <= hostile.requests.length ? Promise.resolve(hostile.requests[n - 1]!) : new Promise((resolve) => waiters.push({ n, resolve })),
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        for (const s of sockets) s.destroy();
      }),
  };
  return hostile;
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = Buffer.from(JSON.stringify(value));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(body.length), ...headers });
  res.end(body);
}

/** Headers at once, then one byte of whitespace every `everyMs` for as long as the client listens: never finishes. */
export function trickle(res: ServerResponse, everyMs: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.write('[');
  const timer = setInterval(() => res.write(' '), everyMs);
  res.on('close', () => clearInterval(timer));
}

/** Sends chunks of `chunkBytes` as fast as the client reads, until it hangs up: a body without end. */
export function flood(res: ServerResponse, chunkBytes: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(chunkBytes, 0x20);
  let open = true;
  res.on('close', () => (open = false));
  const pump = () => {
    while (open && res.write(chunk));
    if (open) res.once('drain', pump);
  };
  res.write('[');
  pump();
}

/**
 * Client options for talking to a hostile server in tests: no pacing worth waiting for, two attempts, and retries
 * that do not sleep (each test counts requests, never time).
 */
export const FAST_CLIENT = { appVersion: '0.1.0', maxRps: 10_000, burst: 64, concurrency: 8, retry: { maxAttempts: 2, baseDelayMs: 1, maxDelayMs: 2 }, sleep: async () => {} };
