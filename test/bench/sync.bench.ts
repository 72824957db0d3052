// Benchmark of a whole sync against the emulator: 200 maps x 400 players at 50 requests per second.
// Reports requests made against the fewest the URI limit allows, and wall time against requests / rate.
// Replays are left out (--no-replays): 60,000 downloads at 50/s would take twenty minutes and say nothing new.
// Run: node test/bench/sync.bench.ts
import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { generateDataset, type DatasetMap } from '../../src-main/emulator/index.ts';
import { openTrackwatch } from '../../src-main/core/trackwatch.ts';
import { tempDataDir } from '../helpers/sync.ts';
import { isMain, minimumRequests, printRows, ratioRow, type BenchRow } from './report.ts';
import { DATA_NOW } from '../helpers/clock.ts';

const MAPS = 200;
const PLAYERS = 400;
const RPS = 50;

/** The game mode a PB lookup sends (seed 4.2 rules 3-5), written here independently of the client. */
function gameMode(map: DatasetMap): string {
  if (map.mapType.endsWith('TM_Stunt')) return 'Stunt';
  if (map.mapType.endsWith('TM_Platform')) return 'Platform';
  return map.hasClones ? 'TimeAttackClone' : 'TimeAttack';
}

/** The emulator in its own process, as the real service would be: its work must not count as the client's. */
async function spawnEmulator(args: string[]): Promise<{ url: string; child: ChildProcess }> {
  const bin = join(import.meta.dirname, '../../bin/trackwatch.js');
  const child = spawn(process.execPath, [bin, 'emulator', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const firstLine = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', resolve);
    child.once('exit', (code) => reject(new Error(`the emulator exited (${code}) before listening`)));
  });
  const url = /listening on (\S+)/.exec(firstLine)?.[1];
  if (!url) throw new Error(`unexpected first line from the emulator: ${firstLine}`);
  return { url, child };
}

export async function run(): Promise<BenchRow[]> {
  const dataset = generateDataset({ now: DATA_NOW, seed: 77, maps: MAPS, players: PLAYERS, style: 'hostile' });
  // The same dataset on both sides: the emulator's CLI generates a season unless told otherwise.
  const emulator = await spawnEmulator(['--generate', '--hostile-names', '--seed', '77', '--maps', String(MAPS), '--players', String(PLAYERS), '--latency', '5']);
  const data = await tempDataDir('trackwatch-bench-');
  const tw = await openTrackwatch({ dataDir: data.dir, apiUrl: emulator.url, maxRps: RPS });
  try {
    const uids = dataset.maps.map((m) => m.mapUid);
    const accounts = [...new Set(dataset.records.map((r) => r.accountId))];
    await tw.addMaps('Bench', uids, { lookUp: false });
    tw.store.players.add('Bench', accounts.map((accountId) => ({ accountId })));

    let minimum = minimumRequests('/maps/?mapUidList='.length, uids);
    for (const map of dataset.maps) {
      minimum += minimumRequests(`/v2/mapRecords/?accountIdList=&mapId=${map.mapId}&gameMode=${gameMode(map)}`.length, accounts);
    }

    const started = performance.now();
    // Positions go to the Live host on a budget of its own (the api bench measures them): this one times the Core sync.
    const summary = await tw.sync({ list: 'Bench', replays: false, positions: false });
    const seconds = (performance.now() - started) / 1000;
    const made = summary.requests; // counted by the client: every attempt it sent
    const ideal = made / RPS;
    console.log(`sync of ${MAPS} maps x ${accounts.length} players at ${RPS} req/s: ${summary.outcome}, ${summary.records} records, ${made} requests, ${seconds.toFixed(2)} s (ideal ${ideal.toFixed(2)} s)`);
    const rows = [
      ratioRow(`sync ${MAPS}x${PLAYERS}: requests / minimum`, made, minimum),
      { figure: `sync ${MAPS}x${PLAYERS}: wall time / (requests / rate)`, measured: `${seconds.toFixed(2)} s / ${ideal.toFixed(2)} s = ${(seconds / ideal).toFixed(3)}`, target: '<= 1.15', ok: seconds / ideal <= 1.15 },
    ];
    printRows(rows);
    return rows;
  } finally {
    await tw.close();
    emulator.child.kill('SIGTERM');
    await data.remove();
  }
}

if (isMain(import.meta.url)) await run();
