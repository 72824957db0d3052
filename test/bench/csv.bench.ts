// Benchmark of the CSV export: 1,000,000 stored records exported by exportCsv (in a child process, for its peak
// memory) against the sqlite3 shell's own CSV export of the same rows (`sqlite3 -csv -header db "SELECT ..."`).
// The export also runs in one thread (parallel: false) in the same rounds, for what its two worker threads save.
// Export and shell runs alternate for a few rounds and the median of each is kept, so a busy machine slows both
// alike; the machine's load average is printed beside the figures. The CPU time each used (Linux: the children's times in /proc/self/stat) is printed beside the wall time: on
// a machine shared with other work the wall times swing, the CPU times much less. Prints times, the ratios and the
// peak memory; never asserts.
// Run: node test/bench/csv.bench.ts [rows] [rounds]
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { exportCsv } from '../../src-main/core/export/csv.ts';
import { openStore } from '../../src-main/core/store/index.ts';
import { insertExportRows } from '../helpers/export-data.ts';
import { printRows, type BenchRow } from './report.ts';

const SQLITE3 = '/usr/bin/sqlite3';
const PLAYERS = 200;

/**
 * The same rows as the export, in the same order, through the same joins (the downloaded replay, the stored world
 * position; a WR holder's records left out), as plain SQL: the raw columns and the world position, no name stripping,
 * no neutralising, no result, medal name or rank (SQL has no such rules).
 */
const SHELL_SELECT = `SELECT m.map_uid, m.map_id, m.name AS map_name, p.account_id,
  coalesce(p.display_name, p.nickname, p.account_id) AS player_name, r.game_mode, r.scope,
  CASE WHEN r.hidden THEN NULL ELSE r.time END AS time_ms, r.score, r.respawn_count AS respawns, r.medal,
  CASE WHEN r.hidden THEN 'true' ELSE 'false' END AS hidden, r.timestamp AS record_timestamp,
  r.map_record_id AS record_id, rp.path AS replay_file, ps.position AS world_position
  FROM records r JOIN maps m ON m.id = r.map_ref JOIN players p ON p.id = r.player_ref
  LEFT JOIN replays rp ON rp.record_id = r.map_record_id AND rp.state = 'downloaded'
  LEFT JOIN positions ps ON ps.map_ref = r.map_ref AND ps.player_ref = r.player_ref AND ps.scope = r.scope AND ps.state = 'ranked'
  WHERE r.current = 1 AND r.player_ref NOT IN (SELECT player_ref FROM world_record_holders)
  ORDER BY r.map_ref, r.player_ref, r.scope`;

/** A data folder with `rows` current records over rows/200 maps and 200 players, written in one transaction. */
export function generate(file: string, rows: number): number {
  const started = performance.now();
  const store = openStore({ file });
  const maps = Math.ceil(rows / PLAYERS);
  store.transaction(() => {
    insertExportRows(store.db, { maps, players: PLAYERS, records: rows });
  });
  store.db.pragma('wal_checkpoint(TRUNCATE)');
  store.close();
  return performance.now() - started;
}

interface ChildResult {
  exportMs: number;
  rows: number;
  maxRssMb: number;
  hwmMb: number | null;
}

/** In the child: export to the file (as the product does, or in one thread), report time and peak memory. */
async function child(db: string, out: string, oneThread: boolean): Promise<void> {
  const store = openStore({ file: db });
  const started = performance.now();
  const { rows } = await exportCsv(store, out, oneThread ? { parallel: false } : {});
  const exportMs = performance.now() - started;
  store.close();
  let hwmMb: number | null = null;
  try {
    const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync('/proc/self/status', 'utf8'));
    if (match) hwmMb = Number(match[1]) / 1024;
  } catch {
    // not Linux
  }
  const result: ChildResult = { exportMs, rows, maxRssMb: process.resourceUsage().maxRSS / 1024, hwmMb };
  process.stdout.write(JSON.stringify(result));
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function medianOrNull(values: readonly (number | null)[]): number | null {
  return values.length === 0 || values.some((v) => v === null) ? null : median(values as number[]);
}

/** CPU time (user + system, ms) of this process's finished children so far, or null off Linux. */
function childrenCpuMs(): number | null {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    // After the command name in parentheses: state is field 3, cutime and cstime are fields 16 and 17.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return null;
  }
}
/** USER_HZ: 100 on Linux's every architecture that reports times in /proc. */
const TICKS_PER_SECOND = 100;

/** Runs f (which spawns and waits for one child) and returns its value, its wall time and the child's CPU time. */
function timed<T>(f: () => T): [T, number, number | null] {
  const cpu = childrenCpuMs();
  const t = performance.now();
  const value = f();
  const wall = performance.now() - t;
  const after = childrenCpuMs();
  return [value, wall, cpu === null || after === null ? null : after - cpu];
}

/**
 * The child starts as `trackwatch export csv` does: with Node's compile cache of the type-stripped modules, which
 * bin/trackwatch.js enables (in the same folder), so module loading is not counted as the export's time.
 */
const CHILD_ENV = { ...process.env, NODE_COMPILE_CACHE: process.env.NODE_COMPILE_CACHE ?? join(tmpdir(), 'node-compile-cache') };

/** The export's target, as a ratio to the shell's time for the same rows (issue 18). */
const TARGET_RATIO = 1.3;

export async function run(rows = 1_000_000, rounds = 5): Promise<BenchRow[]> {
  const dir = mkdtempSync(join(tmpdir(), 'tw-csv-bench-'));
  try {
    const db = join(dir, 'trackwatch.sqlite');
    const genMs = generate(db, rows);
    console.log(`csv bench: ${rows.toLocaleString('en-US')} records generated in ${(genMs / 1000).toFixed(2)} s (one transaction)`);
    const out = join(dir, 'export.csv');
    const shellOut = join(dir, 'shell.csv');
    const shellAvailable = existsSync(SQLITE3);
    const walls: number[] = [];
    const shellWalls: number[] = [];
    const cpus: (number | null)[] = [];
    const shellCpus: (number | null)[] = [];
    const loads: number[] = [];
    let result: ChildResult | undefined;
    const exportTimes: number[] = [];
    // The export in the calling thread alone (parallel: false), in the same rounds: what the two worker threads save.
    const oneWalls: number[] = [];
    const oneCpus: (number | null)[] = [];
    let oneRssMb = 0;
    for (let round = 0; round < rounds; round += 1) {
      rmSync(out, { force: true });
      const [oneProc, oneMs, oneCpu] = timed(() =>
        spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', db, out, 'one-thread'], { encoding: 'utf8', maxBuffer: 1 << 20, env: CHILD_ENV }),
      );
      if (oneProc.status !== 0) throw new Error(`the one-thread export child failed: ${oneProc.stderr}`);
      oneWalls.push(oneMs);
      oneCpus.push(oneCpu);
      oneRssMb = Math.max(oneRssMb, (JSON.parse(oneProc.stdout) as ChildResult).maxRssMb);
      rmSync(out, { force: true });
      const [proc, ms, cpu] = timed(() =>
        spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--child', db, out], { encoding: 'utf8', maxBuffer: 1 << 20, env: CHILD_ENV }),
      );
      if (proc.status !== 0) throw new Error(`the export child failed: ${proc.stderr}`);
      const child = JSON.parse(proc.stdout) as ChildResult;
      walls.push(ms);
      cpus.push(cpu);
      loads.push(loadavg()[0]!);
      // Peak memory: the highest of the rounds, to be safe; the export's own time: the median, below.
      exportTimes.push(child.exportMs);
      result = !result ? child : { ...child, maxRssMb: Math.max(child.maxRssMb, result.maxRssMb), hwmMb: child.hwmMb === null || result.hwmMb === null ? null : Math.max(child.hwmMb, result.hwmMb) };
      if (shellAvailable) {
        const fd = openSync(shellOut, 'w');
        const [shell, sms, scpu] = timed(() => spawnSync(SQLITE3, ['-csv', '-header', db, SHELL_SELECT], { stdio: ['ignore', fd, 'pipe'] }));
        closeSync(fd);
        if (shell.status !== 0) throw new Error(`sqlite3 failed: ${shell.stderr?.toString()}`);
        shellWalls.push(sms);
        shellCpus.push(scpu);
      }
    }
    if (!result) throw new Error('no rounds');
    const wallMs = median(walls);
    const shellMs = median(shellWalls);
    const cpuMs = medianOrNull(cpus);
    const shellCpuMs = medianOrNull(shellCpus);
    result.exportMs = median(exportTimes);
    console.log(`median of ${rounds} interleaved rounds; load average (1 min) ${loads.map((l) => l.toFixed(2)).join(', ')} during them`);
    const mb = (f: string): string => `${(statSync(f).size / 1e6).toFixed(0)} MB`;
    const secs = (ms: number): string => `${(ms / 1000).toFixed(2)} s`;
    const cpu = (ms: number | null): string => (ms === null ? 'CPU not measured (not Linux)' : `${secs(ms)} CPU`);
    const info = (figure: string, measured: string): BenchRow => ({ figure, measured, target: '', ok: true });
    const oneCpuMs = medianOrNull(oneCpus);
    const table: BenchRow[] = [
      info('exportCsv (child process: start, export, exit)', `${secs(wallMs)}, ${cpu(cpuMs)}, ${result.rows.toLocaleString('en-US')} rows, ${mb(out)}`),
      info('  of which the export itself', secs(result.exportMs)),
      info('exportCsv in one thread (parallel: false)', `${secs(median(oneWalls))}, ${cpu(oneCpuMs)}, peak ${oneRssMb.toFixed(0)} MB`),
      info('machine load (1-minute average, median of the rounds)', median(loads).toFixed(2)),
    ];
    if (!shellAvailable) {
      // Not measured is not within target: the summary must not say every figure is.
      table.push({ figure: 'ratio exportCsv / sqlite3 (wall)', measured: `not measured: ${SQLITE3} is missing (apt-get install sqlite3)`, target: `<= ${TARGET_RATIO}x`, ok: false });
    } else {
      const ratio = wallMs / shellMs;
      table.push(
        info('sqlite3 -csv -header (same rows)', `${secs(shellMs)}, ${cpu(shellCpuMs)}, ${mb(shellOut)}`),
        { figure: 'ratio exportCsv / sqlite3 (wall)', measured: `${ratio.toFixed(2)}x`, target: `<= ${TARGET_RATIO}x`, ok: ratio <= TARGET_RATIO },
        info('ratio exportCsv / sqlite3 (CPU)', cpuMs === null || shellCpuMs === null ? 'not measured' : `${(cpuMs / shellCpuMs).toFixed(2)}x`),
      );
    }
    table.push({
      figure: 'export peak memory (maxRSS)',
      measured: `${result.maxRssMb.toFixed(0)} MB${result.hwmMb === null ? '' : ` (VmHWM ${result.hwmMb.toFixed(0)} MB)`}`,
      target: '< 250 MB',
      ok: result.maxRssMb < 250,
    });
    printRows(table);
    return table;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  if (process.argv[2] === '--child') await child(process.argv[3]!, process.argv[4]!, process.argv[5] === 'one-thread');
  else await run(process.argv[2] ? Number(process.argv[2]) : undefined, process.argv[3] ? Number(process.argv[3]) : undefined);
}
