// Settings: the contact, the rate, the OAuth app, the theme, notifications, the game folder, the schedule, "me".
import { isAbsolute } from 'node:path';
import { isUuid } from '../../shared/ids.ts';
import { ServiceError } from '../errors.ts';
import { writes, type HandlerContext, type SomeHandlers } from './context.ts';

/** The account "me" names: an account ID, as stored (lower case). */
function accountIdOf(input: string): string {
  const id = input.trim().toLowerCase();
  if (!isUuid(id)) throw new ServiceError('invalid_input', `"${input.slice(0, 60)}" is not an account ID.`);
  return id;
}

/** Where the data folder moves at the next start is kept by the host, not in the folder: the way off read-only media. */
const movesDataFolderOnly = (update: object): boolean => Object.keys(update).every((key) => key === 'dataDir');

export function settingsHandlers({ service, store, me }: HandlerContext): SomeHandlers<'settings.get' | 'settings.update'> {
  const saved = service.settings;
  const settings = () => ({
    contact: saved.contact,
    maxRps: saved.maxRps,
    dataDir: service.folder.dataDir,
    dataDirNext: service.host.nextDataDir?.get() ?? null,
    replayFolder: saved.gameReplayFolder,
    replayFolderDefault: saved.gameReplayFolderDefault,
    oauthClientId: saved.oauthClientId ?? null,
    oauthSecretStored: service.host.secrets.get('oauth.clientSecret') !== undefined,
    theme: saved.theme,
    scheduledSync: saved.scheduledSync,
    notifications: saved.notifications,
    worldPositions: saved.worldPositions,
    me: me() ?? null,
  });

  return {
    'settings.get': async () => settings(),

    'settings.update': writes(service, async (update) => {
      // Everything that can refuse the update is checked before anything is saved: all of it or none.
      const newMe = update.me === undefined || update.me === null ? update.me : accountIdOf(update.me);
      if (typeof update.replayFolder === 'string' && !isAbsolute(update.replayFolder)) {
        throw new ServiceError('invalid_input', `The game's replay folder must be a full path (like ${saved.gameReplayFolderDefault}), not "${update.replayFolder.slice(0, 80)}".`);
      }
      if (update.dataDir !== undefined && !service.host.nextDataDir) {
        throw new ServiceError('unsupported', 'Browser mode takes its data folder from `trackwatch serve --data-dir`.');
      }
      let reconnect = false;
      if (update.contact !== undefined) {
        saved.set('contact', update.contact);
        reconnect = true;
      }
      if (update.maxRps !== undefined) {
        saved.set('maxRps', update.maxRps);
        reconnect = true;
      }
      if (update.oauth !== undefined) {
        if (update.oauth === null) {
          saved.set('oauthClientId', undefined);
          service.host.secrets.delete('oauth.clientSecret');
        } else {
          saved.set('oauthClientId', update.oauth.clientId);
          if (update.oauth.clientSecret !== undefined) service.host.secrets.set('oauth.clientSecret', update.oauth.clientSecret);
        }
        reconnect = true;
      }
      if (update.theme !== undefined) saved.set('theme', update.theme);
      if (update.notifications !== undefined) saved.set('notify', update.notifications);
      if (update.worldPositions !== undefined) saved.set('positions', update.worldPositions);
      if (update.replayFolder !== undefined) saved.set('gameFolder', update.replayFolder ?? undefined);
      if (update.scheduledSync !== undefined) {
        saved.set('schedule', update.scheduledSync);
        service.schedule.reschedule();
      }
      if (newMe !== undefined) store().settings.setMe(newMe ?? undefined);
      if (update.dataDir !== undefined) service.host.nextDataDir!.set(update.dataDir);
      if (reconnect) await service.reconfigureMain();
      return settings();
    }, movesDataFolderOnly),
  };
}
