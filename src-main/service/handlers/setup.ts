// Setup and the account: the first-run choice (demo or account), the saved login, and trying a login.
import { createNadeoClient } from '../../core/nadeo/index.ts';
import { ServiceError, toErrorValue } from '../errors.ts';
import type { HandlerContext, SomeHandlers } from './context.ts';

type SetupCommands = 'app.info' | 'setup.startDemo' | 'setup.connect' | 'setup.leaveDemo' | 'demo.tour' | 'account.get' | 'account.save'
  | 'account.forget' | 'account.testLogin';

function loginMessage(code: string, message: string): string {
  switch (code) {
    case 'auth_failed':
      return `The service refused this login: ${message} Check the login and password of your service account (trackmania.com).`;
    case 'offline':
      return `Nadeo's service could not be reached: ${message} Check your connection and try again.`;
    case 'rate_limited':
      return 'The service asks us to slow down (429). Wait a minute and try again.';
    case 'not_configured':
      return message;
    default:
      return `The login did not work: ${message}`;
  }
}

export function appInfo({ service }: HandlerContext) {
  return {
    version: service.appVersion,
    shell: service.host.shell,
    platform: service.host.platform,
    setup: service.folder.setup,
    dataDir: service.active.dataDir,
    capabilities: {
      showInFolder: service.host.showItemInFolder !== undefined,
      saveDialog: service.host.chooseSaveFile !== undefined,
      keychain: service.host.secrets.kind === 'keychain',
      nativeNotifications: service.host.notify !== undefined,
      changeDataDir: service.host.nextDataDir !== undefined,
    },
    connection: service.connection.status,
    readOnly: service.folder.readOnly,
  };
}

export function setupHandlers(ctx: HandlerContext): SomeHandlers<SetupCommands> {
  const { service } = ctx;

  const accountInfo = () => ({
    configured: service.client.hasAccount,
    login: service.settings.login ?? null,
    contact: service.settings.contact,
    passwordStored: service.host.secrets.get('nadeo.password') !== undefined,
    storage: service.host.secrets.kind,
  });

  /** Tries credentials with a client of their own, so a failed test never disturbs the saved account. */
  async function testCredentials(credentials: { login: string; password: string }, contact: string) {
    // The player is waiting on the button: two tries, short backoff, a short timeout.
    const client = createNadeoClient({
      baseUrl: service.apiUrl, appVersion: service.appVersion, contact: contact || undefined, credentials, maxRps: service.settings.maxRps,
      retry: { maxAttempts: 2, baseDelayMs: 300, maxDelayMs: 1000, maxRetryAfterMs: 5000 }, timeoutMs: 10_000,
    });
    try {
      await client.testLogin();
      return { success: true, message: `Logged in as ${credentials.login}. Trackwatch can read the leaderboards.`, code: null };
    } catch (error) {
      const value = toErrorValue(error);
      if (value.code === 'offline') service.connection.markOffline(value.message);
      return { success: false, message: loginMessage(value.code, value.message), code: value.code };
    } finally {
      await client.close();
    }
  }

  return {
    'app.info': async () => appInfo(ctx),

    'setup.startDemo': async () => {
      await service.enterDemo();
      return appInfo(ctx);
    },

    'setup.connect': async ({ login, password, contact }) => {
      // Refused before the login is tried: nothing of it could be saved.
      service.folder.requireWritable();
      const test = await testCredentials({ login, password }, contact);
      // A refused login is not saved; an unreachable service is (the player may be offline right now).
      if (!test.success && test.code !== 'offline') throw new ServiceError('auth_failed', test.message);
      service.settings.set('login', login);
      service.settings.set('contact', contact);
      service.host.secrets.set('nadeo.password', password);
      await service.enterAccount();
      return appInfo(ctx);
    },

    'setup.leaveDemo': async () => {
      if (service.folder.setup === 'demo') await service.enterAccount();
      return appInfo(ctx);
    },

    'demo.tour': async () => ({ runId: await service.startDemoTour() }),

    'account.get': async () => accountInfo(),

    'account.save': async ({ login, password, contact }) => {
      service.settings.set('login', login);
      service.settings.set('contact', contact);
      if (password !== undefined) service.host.secrets.set('nadeo.password', password);
      await service.reconfigureMain();
      return accountInfo();
    },

    'account.forget': async () => {
      service.host.secrets.delete('nadeo.password');
      await service.reconfigureMain();
      return accountInfo();
    },

    'account.testLogin': async ({ credentials }) => {
      if (credentials) return testCredentials(credentials, credentials.contact);
      const login = service.settings.login;
      const password = service.host.secrets.get('nadeo.password');
      if (!login || !password) return { success: false, message: 'No account is saved yet: enter a login and a password.', code: 'not_configured' };
      return testCredentials({ login, password }, service.settings.contact);
    },
  };
}

