// The splits views: a map's, a list's, a player's history (service/splits-view.ts builds them for the CLI too).
import { splitsForList, splitsForMap, splitsHistory } from '../splits-view.ts';
import type { HandlerContext, SomeHandlers } from './context.ts';

type SplitsCommands = 'splits.forMap' | 'splits.forList' | 'splits.history';

export function splitsHandlers({ store, me }: HandlerContext): SomeHandlers<SplitsCommands> {
  return {
    'splits.forMap': async (query) => splitsForMap(store(), query, me()),
    'splits.forList': async ({ list }) => splitsForList(store(), list, me()),
    'splits.history': async (query) => splitsHistory(store(), query),
  };
}
