// What every domain's handlers share: the service, the active data folder's Trackwatch, and one way to mark writes.
import type { CallContext, Handlers } from '../../contract/commands.ts';
import type { TrackwatchService } from '../service.ts';
import { Thumbnails } from '../thumbnails.ts';
import * as views from '../views.ts';

export interface HandlerContext {
  readonly service: TrackwatchService;
  readonly thumbnails: Thumbnails;
  /** The Trackwatch of the active data folder (the demo's or the account's). */
  tw(): TrackwatchService['active'];
  store(): TrackwatchService['active']['store'];
  me(): string | undefined;
  /** What places secret entries beside a list's records: the reader's account and the stored world positions. */
  readFacts(list: string): views.ReadFacts;
  requireList(list: string): ReturnType<TrackwatchService['active']['store']['watchlists']['require']>;
  /** The whole list's table, from the cache when nothing was written since. */
  compareTable(list: string): ReturnType<typeof views.compareTable>;
}

export function handlerContext(service: TrackwatchService): HandlerContext {
  const tw = () => service.active;
  const store = () => service.active.store;
  const me = () => service.active.store.settings.me();
  const readFacts = (list: string): views.ReadFacts => {
    const positions = new Map(store().positions.forList(list).map((p) => [`${p.mapId}/${p.accountId}`, p]));
    return { viewer: store().settings.viewer(), positionOf: (mapId, accountId) => positions.get(`${mapId}/${accountId}`) };
  };
  return {
    service,
    thumbnails: new Thumbnails(),
    tw,
    store,
    me,
    readFacts,
    requireList: (list) => store().watchlists.require(list),
    compareTable: (list) => {
      const cached = service.compareCache.get(list);
      if (cached) return cached;
      const worldRecords = { byMap: new Map(store().worldRecords.forList(list).map((wr) => [wr.mapId, wr])), nameOf: (id: string) => store().players.nameOf(id) };
      const table = views.compareTable(list, store().players.list(list), store().records.leaderboards(list), me(), readFacts(list), worldRecords);
      service.compareCache.set(list, table);
      return table;
    },
  };
}

/** Some of the contract's handlers: each domain's module gives its own names. */
export type SomeHandlers<N extends keyof Handlers> = Pick<Handlers, N>;

/**
 * Marks a command that changes stored data: on a read-only data folder it is refused (the read_only error value)
 * before it starts; once it ends, cached views are stale. `stillAllowed` names inputs that change nothing stored.
 */
export function writes<I, O>(
  service: TrackwatchService,
  handler: (input: I, call?: CallContext) => Promise<O>,
  stillAllowed?: NoInfer<(input: I) => boolean>,
): (input: I, call?: CallContext) => Promise<O> {
  return async (input, call) => {
    if (!stillAllowed?.(input)) service.folder.requireWritable();
    try {
      return await handler(input, call);
    } finally {
      service.touch();
    }
  };
}

export const done = { done: true } as const;
