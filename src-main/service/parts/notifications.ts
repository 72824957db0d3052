// New personal bests told to the window (a pb.new event each) and to the desktop (a notification each, or one
// summary for a sync that brought many).
import type { EventPayload } from '../../contract/events.ts';
import type { Store } from '../../core/store/index.ts';
import type { NewPersonalBest } from '../../core/sync/engine.ts';
import { stripFormatting } from '../../shared/format.ts';
import { formatImprovement, playerLabel } from '../../shared/leaderboard.ts';
import type { EventHub } from '../events.ts';

/** More new PBs than this in one sync become one summary notification instead of many. */
const NOTIFY_EACH_UP_TO = 3;

export interface NotificationsOptions {
  events: EventHub;
  /** The desktop app's notifications (browser mode has none). */
  host: { notify?(title: string, body: string): void };
  /** Whether the player wants desktop notifications (Settings). */
  enabled: () => boolean;
  /** The active data folder's store, for the names the player knows. */
  store: () => Store;
}

export class PbNotifications {
  readonly #o: NotificationsOptions;
  #pending: NewPersonalBest[] = [];

  constructor(options: NotificationsOptions) {
    this.#o = options;
  }

  readonly newPersonalBest = (e: NewPersonalBest, list: string | null): void => {
    // First sightings are not news (a first sync would announce every record); improvements and unhidings are.
    if (e.kind !== 'improved' && e.kind !== 'unhidden') return;
    const payload: EventPayload<'pb.new'> = {
      list,
      mapUid: e.mapUid,
      mapName: e.mapName,
      accountId: e.accountId,
      playerName: this.#playerLabel(e.accountId, e.playerName),
      kind: e.mapKind,
      result: e.result,
      previous: e.previous,
      setAt: e.recordTimestamp,
    };
    this.#o.events.emit('pb.new', payload);
    this.#pending.push(e);
    if (this.#o.enabled() && this.#o.host.notify && this.#pending.length <= NOTIFY_EACH_UP_TO) {
      this.#o.host.notify(`New PB: ${payload.playerName}`, describePb(payload));
    }
  };

  /** The sync ended: many new PBs are told in one summary. */
  syncFinished(): void {
    const count = this.#pending.length;
    this.#pending = [];
    if (count > NOTIFY_EACH_UP_TO && this.#o.enabled() && this.#o.host.notify) {
      this.#o.host.notify('New personal bests', `${count} new PBs by watched players. Open Trackwatch to see them.`);
    }
  }

  /** The name a notification shows: plain text (no formatting codes), the start of the account ID at worst. */
  #playerLabel(accountId: string, fallback: string): string {
    const player = this.#o.store().players.get(accountId);
    // A display name may carry formatting codes; a nickname is the player's own plain text.
    return player
      ? playerLabel({ ...player, displayName: player.displayName && stripFormatting(player.displayName) })
      : stripFormatting(fallback);
  }
}

function describePb(pb: EventPayload<'pb.new'>): string {
  return `${stripFormatting(pb.mapName)}: ${formatImprovement(pb.kind, pb.result, pb.previous)}`;
}
