// A gate in front of an emulator: passes requests through, and lets a test hold, refuse or cut off the ones it names,
// so a test can stop a sync at a chosen moment without racing a timer.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type GateRule = 'pass' | 'hold' | { status: number; body: string };

export interface Gate {
  url: string;
  /** Decides each request by its path and query; 'hold' keeps it open until the gate closes. */
  rule: (path: string) => GateRule;
  /** Resolves when a request matching `test` is held now, or once one is held (or answered by a rule). */
  seen(test: (path: string) => boolean): Promise<string>;
  /** Lets every held request through to the emulator, as if it had never been held. */
  release(): void;
  /** Every new connection is refused from now on (the service "goes away"); open ones are destroyed. */
  refuse(): Promise<void>;
  close(): Promise<void>;
}

export async function startGate(target: string): Promise<Gate> {
  const waiting: { test: (path: string) => boolean; resolve: (path: string) => void }[] = [];
  const held = new Map<ServerResponse, { path: string; pass: () => void }>();
  const gate: Partial<Gate> & { rule: Gate['rule'] } = { rule: () => 'pass' };
  const forward = (req: IncomingMessage, res: ServerResponse, path: string): void => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'connection').map(([k, v]) => [k, String(v)]));
      fetch(`${target}${path}`, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : null })
        .then(async (answer) => {
          const body = Buffer.from(await answer.arrayBuffer());
          const out: Record<string, string> = {};
          answer.headers.forEach((v, k) => {
            if (k !== 'content-encoding' && k !== 'transfer-encoding' && k !== 'connection' && k !== 'content-length') out[k] = v;
          });
          res.writeHead(answer.status, out).end(body);
        })
        .catch(() => res.destroy());
    });
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    const rule = gate.rule(path);
    if (rule !== 'pass') {
      for (const w of waiting.splice(0)) {
        if (w.test(path)) w.resolve(path);
        else waiting.push(w);
      }
    }
    if (rule === 'hold') {
      held.set(res, { path, pass: () => forward(req, res, path) });
      res.on('close', () => held.delete(res));
      return;
    }
    if (rule !== 'pass') {
      res.writeHead(rule.status, { 'content-type': 'application/json' }).end(rule.body);
      return;
    }
    forward(req, res, path);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(gate, {
    url: `http://127.0.0.1:${port}`,
    // A request held before the test asked counts: a sync may reach the gate before the test's next line runs.
    seen: (test: (path: string) => boolean) => new Promise<string>((resolve) => {
      const already = [...held.values()].find((h) => test(h.path));
      if (already) resolve(already.path);
      else waiting.push({ test, resolve });
    }),
    release: () => {
      const letGo = [...held.values()];
      held.clear();
      for (const { pass } of letGo) pass();
    },
    refuse: async () => {
      for (const res of held.keys()) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
    close: async () => {
      for (const res of held.keys()) res.destroy();
      server.closeAllConnections();
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  }) as Gate;
}
