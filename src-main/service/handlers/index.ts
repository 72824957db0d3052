// The handler map: one function per contract command, composed from each domain's handlers. A command missing
// here does not compile; a command that writes is marked with writes() where its domain registers it.
import type { Handlers } from '../../contract/commands.ts';
import type { TrackwatchService } from '../service.ts';
import { handlerContext } from './context.ts';
import { listHandlers } from './lists.ts';
import { replayHandlers } from './replays.ts';
import { settingsHandlers } from './settings.ts';
import { setupHandlers } from './setup.ts';
import { exportHandlers, syncHandlers } from './sync.ts';
import { viewHandlers } from './views.ts';

export function createHandlers(service: TrackwatchService): Handlers {
  const ctx = handlerContext(service);
  return {
    ...setupHandlers(ctx),
    ...settingsHandlers(ctx),
    ...listHandlers(ctx),
    ...viewHandlers(ctx),
    ...replayHandlers(ctx),
    ...syncHandlers(ctx),
    ...exportHandlers(ctx),
  };
}
