// Loaded with `node --import` into a trackwatch process by the local-fault tests, never by the product: it makes
// chosen writes fail the way a full disk does, or interrupts the process at a chosen moment, so each fault is one
// the test controls (a real full disk cannot be had on demand, nor safely).
//
// TRACKWATCH_TEST_INJECT is JSON with any of:
//   sqliteFull: { statement: "regex on the SQL", after: N }  the N+1th and later runs of matching statements fail
//                                                              with SQLITE_FULL, as SQLite does on a full disk
//   enospc:     { path: "regex on the path" }                  opening a matching file for writing fails with ENOSPC
//   sigint:     { path: "regex on the path" }                  opening a matching file for writing sends SIGINT
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import Database from 'better-sqlite3';

interface Plan {
  sqliteFull?: { statement: string; after: number };
  enospc?: { path: string };
  sigint?: { path: string };
}

const plan = JSON.parse(process.env.TRACKWATCH_TEST_INJECT ?? '{}') as Plan;

if (plan.sqliteFull) {
  const { statement, after } = plan.sqliteFull;
  const pattern = new RegExp(statement);
  const probe = new Database(':memory:');
  const Statement = probe.prepare('SELECT 1').constructor as { prototype: { run: (...args: unknown[]) => unknown; source: string } };
  probe.close();
  const run = Statement.prototype.run;
  let calls = 0;
  Statement.prototype.run = function (this: { source: string }, ...args: unknown[]) {
    if (pattern.test(this.source) && ++calls > after) throw new Database.SqliteError('database or disk is full', 'SQLITE_FULL');
    return run.apply(this, args);
  };
}

function writing(flags: unknown): boolean {
  return typeof flags === 'string' ? /[wa+]/.test(flags) : typeof flags === 'number' && (flags & (fs.constants.O_WRONLY | fs.constants.O_RDWR)) !== 0;
}

function fault(path: unknown, flags: unknown): NodeJS.ErrnoException | undefined {
  const file = String(path);
  if (plan.sigint && writing(flags) && new RegExp(plan.sigint.path).test(file)) process.kill(process.pid, 'SIGINT');
  if (plan.enospc && writing(flags) && new RegExp(plan.enospc.path).test(file)) {
    return Object.assign(new Error(`ENOSPC: no space left on device, open '${file}'`), { code: 'ENOSPC', errno: -28, syscall: 'open', path: file });
  }
  return undefined;
}

if (plan.enospc || plan.sigint) {
  const openPromise = fs.promises.open;
  fs.promises.open = async function (path: fs.PathLike, flags?: string | number, mode?: fs.Mode) {
    const error = fault(path, flags);
    if (error) throw error;
    return openPromise(path, flags, mode);
  } as typeof fs.promises.open;
  const openCallback = fs.open;
  fs.open = function (path: fs.PathLike, ...rest: unknown[]) {
    const callback = rest.at(-1) as (error: NodeJS.ErrnoException | null, fd?: number) => void;
    const flags = rest.length > 1 ? rest[0] : 'r';
    const error = fault(path, flags);
    if (error) {
      process.nextTick(() => callback(error));
      return;
    }
    return (openCallback as (...args: unknown[]) => void)(path, ...rest);
  } as typeof fs.open;
  // ES module imports of node:fs and node:fs/promises see the patched functions.
  syncBuiltinESMExports();
}
