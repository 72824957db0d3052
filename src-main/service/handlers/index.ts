// The handler map: one function per contract command, composed from each domain's handlers. A command missing
// here does not compile; a command that writes is marked with writes() where its domain registers it.
import type { Handlers } from '../../contract/commands.ts';
import type { TrackwatchService } from '../service.ts';
import { handlerContext, writes } from './context.ts';
import { listHandlers } from './lists.ts';
import { replayHandlers } from './replays.ts';
import { settingsHandlers } from './settings.ts';
import { setupHandlers } from './setup.ts';
import { splitsHandlers } from './splits.ts';
import { exportHandlers, syncHandlers } from './sync.ts';
import { viewHandlers } from './views.ts';

export function createHandlers(service: TrackwatchService): Handlers {
  const ctx = handlerContext(service);
  const sync = syncHandlers(ctx);
  return {
    ...setupHandlers(ctx),
    ...settingsHandlers(ctx),
    ...listHandlers(ctx),
    ...viewHandlers(ctx),
    ...splitsHandlers(ctx),
    ...replayHandlers(ctx),
    ...sync,
    // A sync writes what it fetches: on a read-only data folder it is refused as such, before the account is checked.
    'sync.start': writes(service, sync['sync.start']),
    ...exportHandlers(ctx),
  };
}
