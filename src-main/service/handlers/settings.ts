// Settings: the contact, the rate, the OAuth app, the theme, notifications, the game folder, the schedule, "me".
import { isAbsolute } from 'node:path';
import { ServiceError } from '../errors.ts';
import { writes, type HandlerContext, type SomeHandlers } from './context.ts';

/** Where the data folder moves at the next start is kept by the host, not in the folder: the way off read-only media. */
const movesDataFolderOnly = (update: object): boolean => Object.keys(update).every((key) => key === 'dataDir');

export function settingsHandlers({ service, tw, me }: HandlerContext): SomeHandlers<'settings.get' | 'settings.update'> {
  const settings = () => ({
    contact: service.contact,
    maxRps: service.maxRps,
    dataDir: service.dataDir,
    dataDirNext: service.host.nextDataDir?.get() ?? null,
    replayFolder: service.gameReplayFolder,
    replayFolderDefault: service.gameReplayFolderDefault,
    oauthClientId: service.oauthClientId ?? null,
    oauthSecretStored: service.host.secrets.get('oauth.clientSecret') !== undefined,
    theme: service.theme,
    scheduledSync: service.scheduledSync,
    notifications: service.notifications,
    worldPositions: service.worldPositions,
    me: me() ?? null,
  });

  return {
    'settings.get': async () => settings(),

    'settings.update': writes(service, async (update) => {
      // Everything that can refuse the update is checked before anything is saved: all of it or none.
      const newMe = update.me === undefined || update.me === null ? update.me : service.requireMe(update.me);
      if (typeof update.replayFolder === 'string' && !isAbsolute(update.replayFolder)) {
        throw new ServiceError('invalid_input', `The game's replay folder must be a full path (like ${service.gameReplayFolderDefault}), not "${update.replayFolder.slice(0, 80)}".`);
      }
      if (update.dataDir !== undefined && !service.host.nextDataDir) {
        throw new ServiceError('unsupported', 'Browser mode takes its data folder from `trackwatch serve --data-dir`.');
      }
      let reconnect = false;
      if (update.contact !== undefined) {
        service.set('contact', update.contact);
        reconnect = true;
      }
      if (update.maxRps !== undefined) {
        service.set('maxRps', update.maxRps);
        reconnect = true;
      }
      if (update.oauth !== undefined) {
        if (update.oauth === null) {
          service.set('oauthClientId', undefined);
          service.host.secrets.delete('oauth.clientSecret');
        } else {
          service.set('oauthClientId', update.oauth.clientId);
          if (update.oauth.clientSecret !== undefined) service.host.secrets.set('oauth.clientSecret', update.oauth.clientSecret);
        }
        reconnect = true;
      }
      if (update.theme !== undefined) service.set('theme', update.theme);
      if (update.notifications !== undefined) service.set('notify', update.notifications);
      if (update.worldPositions !== undefined) service.set('positions', update.worldPositions);
      if (update.replayFolder !== undefined) service.set('gameFolder', update.replayFolder ?? undefined);
      if (update.scheduledSync !== undefined) {
        service.set('schedule', update.scheduledSync);
        service.reschedule();
      }
      if (newMe !== undefined) tw().setMe(newMe ?? undefined);
      if (update.dataDir !== undefined) service.host.nextDataDir!.set(update.dataDir);
      if (reconnect) await service.reconfigureMain();
      return settings();
    }, movesDataFolderOnly),
  };
}
