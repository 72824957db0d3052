// `trackwatch serve`: the desktop app's window in a browser, for machines without Electron or without a screen.
// It reads the same flags and environment as every other command; what they give wins over the window's saved
// settings, and is saved as them (as the Settings view would).
import type { Command } from 'commander';
import { StoreError, localFault } from '../../core/store/index.ts';
import { keepRunningOnUnexpectedErrors } from '../../service/errors.ts';
import { memorySecretStore } from '../../service/secrets.ts';
import type { TrackwatchService } from '../../service/service.ts';
import { resolveOptions, resolveServiceUrls, type GlobalFlags } from '../context.ts';
import { UserError } from '../errors.ts';
import type { Output } from '../output.ts';

/** Applies what the flags and environment gave (only what they gave: defaults leave saved settings alone). */
async function applyGiven(service: TrackwatchService, flags: GlobalFlags, env: NodeJS.ProcessEnv): Promise<void> {
  // A data folder on read-only media keeps what it has: the window shows it, and says why nothing can change.
  if (service.folder.readOnly !== null) return;
  const options = resolveOptions(flags, env);
  let changed = false;
  if (flags.contact !== undefined || env.TRACKWATCH_CONTACT) {
    service.settings.set('contact', options.contact);
    changed = true;
  }
  if (options.maxRps !== undefined) {
    service.settings.set('maxRps', options.maxRps);
    changed = true;
  }
  if (options.credentials) {
    service.settings.set('login', options.credentials.login);
    changed = true;
  }
  if (env.TRACKWATCH_OAUTH_CLIENT_ID) {
    service.settings.set('oauthClientId', env.TRACKWATCH_OAUTH_CLIENT_ID);
    changed = true;
  }
  if (!changed) return;
  if (options.credentials && service.folder.setup === 'none') await service.enterAccount();
  else await service.reconfigureMain();
}

export function registerServeCommand(program: Command, out: Output): void {
  program
    .command('serve')
    .description('open Trackwatch in a browser: serves the window on 127.0.0.1 behind a one-time token')
    .option('--port <n>', 'port on 127.0.0.1 (default: a free one)')
    .action(async (flags: { port?: string }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalFlags>();
      const port = flags.port === undefined ? 0 : Number(flags.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UserError(`--port must be a port number, got "${flags.port}".`);
      // The same rules as every command: --data-dir "" refused, --max-rps in range, login and password together.
      const { env } = out.io;
      const options = resolveOptions(globals, env);
      // Browser mode has no keychain: a password from the environment lives in memory only, like one typed in.
      const secrets = memorySecretStore();
      if (env.TRACKWATCH_PASSWORD) secrets.set('nadeo.password', env.TRACKWATCH_PASSWORD);
      if (env.TRACKWATCH_OAUTH_CLIENT_SECRET) secrets.set('oauth.clientSecret', env.TRACKWATCH_OAUTH_CLIENT_SECRET);
      // --live-url, --oauth-url, --exchange-url as every command takes them (a real host beside an emulator refused).
      const urls = resolveServiceUrls(globals, env, options.apiUrl);
      let mode;
      try {
        // The service and its HTTP bridge load with `serve`, not with every command.
        const { startBrowserMode } = await import('../../bridge/browser-mode.ts');
        mode = await startBrowserMode({
          dataDir: options.dataDir,
          apiUrl: options.apiUrl,
          oauthUrl: urls.oauthUrl,
          liveUrl: urls.liveUrl,
          exchangeUrl: urls.exchangeUrl,
          port,
          secrets,
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        if (/EADDRINUSE/.test(message)) throw new UserError(`port ${port} is taken; choose another with --port.`);
        // A data folder that cannot be used says so in its own words (and exit code); anything else in one line.
        if (localFault(error) || error instanceof StoreError) throw error;
        throw new UserError(message);
      }
      // A bug in one request or one sync is reported, and the window stays served (a process-wide hook: serve runs
      // until it is stopped, and removes it then).
      const stopReporting = keepRunningOnUnexpectedErrors((line, stack) => out.io.stderr.write(`trackwatch serve: ${line}\n${stack ? `${stack}\n` : ''}`));
      try {
        await applyGiven(mode.service, globals, env);
        // Listening for the stop signals before printing the URL: a signal the OS delivers while no listener is
        // registered kills the process outright, and whoever read the URL may send one at once.
        let stop!: () => void;
        const stopped = new Promise<void>((resolve) => (stop = resolve));
        const listening = (['SIGINT', 'SIGTERM'] as const).map((name) => out.io.onceSignal(name, stop));
        out.io.stdout.write(`Trackwatch is open at\n\n  ${mode.bridge.url}\n\nOnly this URL (with its token) opens it. Press Ctrl+C to stop.\n`);
        await stopped;
        for (const stopListening of listening) stopListening();
        out.io.stdout.write('Stopping…\n');
      } finally {
        await mode.close();
        stopReporting();
      }
    });
}
