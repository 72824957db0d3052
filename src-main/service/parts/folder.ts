// Which data shows: the real data folder's (possibly on read-only media, then shown but never changed) or the
// demo's, kept inside it; and the first-run choice between them.
import { join } from 'node:path';
import type { z } from 'zod';
import type * as s from '../../contract/schemas.ts';
import { LocalFaultCode, LocalFaultError } from '../../core/store/errors.ts';
import { openTrackwatch, type Trackwatch, type TrackwatchOptions } from '../../core/trackwatch.ts';
import { startDemo, type Demo, type DemoOptions } from '../demo.ts';
import { ServiceError } from '../errors.ts';

export type Setup = z.output<typeof s.SetupState>;

export class DataFolder {
  readonly dataDir: string;
  readonly main: Trackwatch;
  /** Why the data folder cannot be written (read-only media), or null: then everything shows and nothing changes. */
  readonly readOnly: string | null;
  #setup: Setup = 'none';
  #demo: Demo | undefined;
  /** The demo whose tour the next sync runs (planTour). */
  #tour: Demo | undefined;

  private constructor(main: Trackwatch, readOnly: string | null) {
    this.dataDir = main.dataDir;
    this.main = main;
    this.readOnly = readOnly;
  }

  /** Opens the real data folder; read-only media is opened as it is, to show what is stored. */
  static async open(options: TrackwatchOptions): Promise<DataFolder> {
    let main: Trackwatch;
    let readOnly: string | null = null;
    try {
      main = await openTrackwatch(options);
    } catch (error) {
      if (!(error instanceof LocalFaultError && error.code === LocalFaultCode.READ_ONLY)) throw error;
      // Read-only media (a backup, a mounted image): open what is stored as it is, to show it; every write says why.
      main = await openTrackwatch(options, { readOnly: true });
      readOnly = readOnlyMessage(options.dataDir);
    }
    return new DataFolder(main, readOnly);
  }

  get setup(): Setup {
    return this.#setup;
  }

  set setup(setup: Setup) {
    this.#setup = setup;
  }

  /**
   * Where the real data leads without a saved choice: someone who used the command line before already has lists,
   * and lands in them, not on the welcome screen.
   */
  get setupOfRealData(): Setup {
    return this.main.store.watchlists.list().length > 0 ? 'account' : 'none';
  }

  /** The Trackwatch whose data shows: the demo's while in the demo, the real folder's otherwise. */
  get active(): Trackwatch {
    return this.#demo?.trackwatch ?? this.main;
  }

  /** The running demo (its emulator included), while in the demo. */
  get demo(): Demo | undefined {
    return this.#demo;
  }

  /** Before anything that would change the data folder: on read-only media, the error value that says why not. */
  requireWritable(): void {
    if (this.readOnly !== null) throw new ServiceError('read_only', this.readOnly);
  }

  /** Starts the demo in the folder's demo/ unless it runs; `configure` sets up its clients before it shows. */
  async startDemo(options: Omit<DemoOptions, 'dataDir'> | undefined, configure: (tw: Trackwatch) => Promise<void>): Promise<void> {
    if (this.#demo) return;
    const demo = await startDemo({ dataDir: join(this.dataDir, 'demo'), ...options });
    await configure(demo.trackwatch);
    this.#demo = demo;
  }

  async closeDemo(): Promise<void> {
    const demo = this.#demo;
    this.#demo = undefined;
    await demo?.close();
  }

  /** The next sync started runs this demo's tour. */
  planTour(demo: Demo): void {
    this.#tour = demo;
  }

  /** The tour planned for this sync, if the demo it was planned in still runs; the plan is used up either way. */
  takeTour(): Demo | undefined {
    const tour = this.#tour;
    this.#tour = undefined;
    return tour && tour === this.#demo ? tour : undefined;
  }

  async close(): Promise<void> {
    await this.closeDemo();
    await this.main.close();
  }
}

/** What every write answers on read-only media, and what the window's banner says. */
function readOnlyMessage(dataDir: string): string {
  return `The data folder ${dataDir} is read-only: Trackwatch can show what is stored but cannot change it. ` +
    'Copy the folder somewhere writable and open that copy (Settings, data folder; `trackwatch serve --data-dir` in browser mode), ' +
    'or make this one writable, then start Trackwatch again.';
}
