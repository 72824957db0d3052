// A tiny programmable HTTP server on 127.0.0.1:0 for the client's unit tests: records every request it sees.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

export type Handler = (req: SeenRequest, res: ServerResponse, raw: IncomingMessage) => unknown;

export interface LocalServer {
  url: string;
  requests: SeenRequest[];
  handler: Handler;
  close(): Promise<void>;
}

export async function startLocalServer(handler: Handler): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  const server = createServer({ maxHeaderSize: 1024 * 1024 }, (raw, res) => {
    const chunks: Buffer[] = [];
    raw.on('data', (c: Buffer) => chunks.push(c));
    raw.on('end', () => {
      const seen: SeenRequest = { method: raw.method ?? 'GET', url: raw.url ?? '/', headers: raw.headers, body: Buffer.concat(chunks).toString('utf8') };
      local.requests.push(seen);
      Promise.resolve(local.handler(seen, res, raw)).catch((e: unknown) => {
        if (!res.headersSent) res.writeHead(599).end(String(e));
      });
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  const local: LocalServer = {
    url: `http://127.0.0.1:${port}`,
    requests: [],
    handler,
    close: () =>
      new Promise<void>((ok) => {
        server.close(() => ok());
        for (const s of sockets) s.destroy();
      }),
  };
  return local;
}

export function sendJson(res: ServerResponse, status: number, value: unknown, headers: Record<string, string> = {}): void {
  const body = Buffer.from(JSON.stringify(value));
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(body.length), ...headers });
  res.end(body);
}

/** Query parameters of a request-target, decoded. */
export function queryOf(url: string): URLSearchParams {
  const at = url.indexOf('?');
  return new URLSearchParams(at < 0 ? '' : url.slice(at + 1));
}

export function pathOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? url : url.slice(0, at);
}
