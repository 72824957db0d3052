// Helpers for the API core's integration tests: a fast client for the emulator and a tiny proxy in front of it.
import { createServer, request, type IncomingMessage } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { NadeoClientOptions } from '../../../src-main/core/nadeo/index.ts';

/** Client options for tests: quick pacing and backoff, so faults and retries cost milliseconds. */
export function testClientOptions(baseUrl: string, extra: Partial<NadeoClientOptions> = {}): NadeoClientOptions {
  return {
    baseUrl,
    appVersion: '0.1.0',
    maxRps: 2000,
    burst: 50,
    concurrency: 6,
    retry: { maxAttempts: 8, baseDelayMs: 1, maxDelayMs: 10 },
    ...extra,
  };
}

export interface ProxyOptions {
  /** Answer 414 from this request-target length on, like a stricter proxy would. */
  maxUriLength?: number;
  /** Rewrites the request-target before forwarding. */
  rewrite?: (target: string) => string;
}

export interface RunningProxy {
  url: string;
  seen: string[];
  uriTooLong: number;
  close(): Promise<void>;
}

/** A reverse proxy on 127.0.0.1:0 in front of `upstream`. */
export async function startProxy(upstream: string, options: ProxyOptions): Promise<RunningProxy> {
  const target = new URL(upstream);
  const sockets = new Set<Socket>();
  const server = createServer({ maxHeaderSize: 1024 * 1024 }, (req: IncomingMessage, res) => {
    const url = req.url ?? '/';
    proxy.seen.push(url);
    if (options.maxUriLength !== undefined && url.length >= options.maxUriLength) {
      proxy.uriTooLong++;
      res.writeHead(414, { 'content-type': 'text/html' }).end('<html>414 Request-URI Too Large</html>');
      return;
    }
    const forwarded = request(
      { host: target.hostname, port: target.port, method: req.method, path: options.rewrite ? options.rewrite(url) : url, headers: req.headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    forwarded.on('error', () => res.destroy());
    req.pipe(forwarded);
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const proxy: RunningProxy = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen: [],
    uriTooLong: 0,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        for (const s of sockets) s.destroy();
      }),
  };
  return proxy;
}

/** Replaces an emulator's origin in every string of a value, so answers of two emulators can be compared. */
export function withoutOrigin<T>(value: T, origin: string): T {
  return JSON.parse(JSON.stringify(value).split(origin).join('{emulator}')) as T;
}
