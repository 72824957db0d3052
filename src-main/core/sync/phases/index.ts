// The sync, phase by phase, in the order it runs them. Each phase is one file over the shared context (context.ts):
// it reads the store and the options, asks its clients, writes in transactions, counts in the run state and reports
// failures to the failure policy. A new step is one file exporting a Phase and one line here, at its place in the
// order; its `planned` is what the time left counts for it before it starts. So the next one slots in as:
//   - after replaysPhase, `splitsPhase`: the checkpoint splits read from the replays downloaded (no request: planned 0).
// worldRecordsPhase runs before the records, not after the positions: a map's WR holder rides in that map's records
// request, so the WR's ghost costs no request of its own (phases/world-records.ts).
import type { Phase } from '../context.ts';
import { mapsPhase } from './maps.ts';
import { namesPhase } from './names.ts';
import { positionsPhase } from './positions.ts';
import { recordsPhase } from './records.ts';
import { replaysPhase } from './replays.ts';
import { sourcesPhase } from './sources.ts';
import { worldRecordsPhase } from './world-records.ts';

export const PHASES: readonly Phase[] = [sourcesPhase, mapsPhase, worldRecordsPhase, recordsPhase, positionsPhase, replaysPhase, namesPhase];
