// Everything main tells the renderer without being asked.
import type { z } from 'zod';
import type { EventName } from './names.ts';
import * as s from './schemas.ts';

export const events = {
  'sync.progress': s.SyncProgress,
  'sync.finished': s.SyncFinished,
  /** A watched player set a new personal best, seen by a sync. */
  'pb.new': s.NewPersonalBest,
  /** Whether the service can be reached. */
  'status.changed': s.ConnectionStatus,
  /** The first-start reading of archived replays' splits: how far it got. */
  'splits.backfill': s.SplitsBackfillProgress,
} as const satisfies Record<EventName, z.ZodType>;

export type Events = typeof events;
export type EventPayload<E extends EventName> = z.output<Events[E]>;
