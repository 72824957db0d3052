// Browser mode: the same contract and handler map as the desktop app, over HTTP on loopback.
// Commands are POST /api/invoke, events an SSE stream at /api/events; both demand the token printed in the URL,
// and every request must name our own host (DNS rebinding) and, when it says where it comes from, our own origin.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Handlers } from '../contract/commands.ts';
import { errorResult } from '../contract/result.ts';
import { dispatch } from '../service/dispatch.ts';
import type { EventHub } from '../service/events.ts';
import { serveRendererFile } from '../service/static-files.ts';

export interface BridgeOptions {
  handlers: Handlers;
  events: EventHub;
  /** The built renderer (out/renderer). */
  rendererDir: string;
  /** 0 (the default) picks a free port. */
  port?: number;
  /** A fixed token, for tests; a random one otherwise. */
  token?: string;
  /** SSE keep-alive comment interval. */
  keepAliveMs?: number;
}

export interface RunningBridge {
  /** Where to point a browser: our origin with the token in the fragment (never sent to a server, never logged). */
  readonly url: string;
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  close(): Promise<void>;
}

/** Commands carry at most 5,000 map references of 500 characters; anything larger is not ours. */
export const MAX_BODY_BYTES = 4 * 1024 * 1024;
const LOOPBACK = '127.0.0.1';

const API_HEADERS = {
  'Cache-Control': 'no-store',
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
} as const;

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...API_HEADERS, 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(text) });
  res.end(text);
}

function refuse(res: ServerResponse, status: number, message: string): void {
  sendJson(res, status, errorResult('forbidden', message));
}

async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export async function startBridge(options: BridgeOptions): Promise<RunningBridge> {
  const token = options.token ?? randomBytes(32).toString('base64url');
  const streams = new Set<ServerResponse>();
  let port = 0;
  const hosts = (): Set<string> => new Set([`${LOOPBACK}:${port}`, `localhost:${port}`]);
  const origins = (): Set<string> => new Set([`http://${LOOPBACK}:${port}`, `http://localhost:${port}`]);

  const authorized = (req: IncomingMessage): boolean => {
    const header = req.headers.authorization ?? '';
    return header.startsWith('Bearer ') && sameSecret(header.slice(7), token);
  };

  const server = createServer((req, res) => {
    void handle(req, res).catch(() => {
      if (!res.headersSent) sendJson(res, 500, errorResult('internal', 'The bridge failed to answer.'));
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Another Host is a page on another name resolving to us (DNS rebinding): refuse before anything else.
    if (!hosts().has(req.headers.host ?? '')) return refuse(res, 421, 'Unknown host.');
    const origin = req.headers.origin;
    if (origin !== undefined && !origins().has(origin)) return refuse(res, 403, 'Requests from other sites are refused.');
    const site = req.headers['sec-fetch-site'];
    if (site !== undefined && site !== 'same-origin' && site !== 'none') return refuse(res, 403, 'Requests from other sites are refused.');
    const url = new URL(req.url ?? '/', `http://${LOOPBACK}:${port}`);

    if (url.pathname.startsWith('/api/')) {
      if (!authorized(req)) return refuse(res, 401, 'Missing or wrong token: open the URL `trackwatch serve` printed.');
      if (url.pathname === '/api/invoke') {
        if (req.method !== 'POST') return refuse(res, 405, 'Use POST.');
        if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return refuse(res, 415, 'Send JSON.');
        const text = await readBody(req);
        if (text === null) return sendJson(res, 413, errorResult('invalid_input', 'The request is too large.'));
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          return sendJson(res, 400, errorResult('invalid_input', 'The request is not JSON.'));
        }
        const { name, input } = (body && typeof body === 'object' ? body : {}) as { name?: unknown; input?: unknown };
        // A caller that hangs up ends the work it started (a paged source stops with it).
        const caller = new AbortController();
        res.once('close', () => {
          if (!res.writableFinished) caller.abort();
        });
        return sendJson(res, 200, await dispatch(options.handlers, name, input, { signal: caller.signal }));
      }
      if (url.pathname === '/api/events') {
        if (req.method !== 'GET') return refuse(res, 405, 'Use GET.');
        res.writeHead(200, { ...API_HEADERS, 'Content-Type': 'text/event-stream; charset=utf-8', Connection: 'keep-alive' });
        res.write(': connected\n\n');
        streams.add(res);
        const unsubscribe = options.events.subscribe((name, payload) => {
          res.write(`event: ${name}\ndata: ${JSON.stringify(payload)}\n\n`);
        });
        const keepAlive = setInterval(() => res.write(': keep-alive\n\n'), options.keepAliveMs ?? 20_000);
        res.on('close', () => {
          clearInterval(keepAlive);
          unsubscribe();
          streams.delete(res);
        });
        return;
      }
      return sendJson(res, 404, errorResult('not_found', 'No such endpoint.'));
    }

    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 405, 'Use GET.');
    const file = await serveRendererFile(options.rendererDir, url.pathname);
    res.writeHead(file.status, file.headers);
    res.end(req.method === 'HEAD' ? undefined : file.body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, LOOPBACK, () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  const origin = `http://${LOOPBACK}:${port}`;

  return {
    url: `${origin}/#token=${token}`,
    origin,
    port,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        for (const stream of streams) stream.end();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
