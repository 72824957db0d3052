// `trackwatch serve`: the desktop app's window in a browser, for machines without Electron or without a screen.
import type { Command } from 'commander';
import { startBrowserMode } from '../../bridge/browser-mode.ts';
import { memorySecretStore } from '../../service/secrets.ts';
import { resolveDataDir } from '../../core/paths.ts';
import type { GlobalFlags } from '../context.ts';
import { UserError } from '../errors.ts';

export function registerServeCommand(program: Command): void {
  program
    .command('serve')
    .description('open Trackwatch in a browser: serves the window on 127.0.0.1 behind a one-time token')
    .option('--port <n>', 'port on 127.0.0.1 (default: a free one)')
    .action(async (flags: { port?: string }, command: Command) => {
      const globals = command.optsWithGlobals<GlobalFlags>();
      const port = flags.port === undefined ? 0 : Number(flags.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new UserError(`--port must be a port number, got "${flags.port}".`);
      // Browser mode has no keychain: a password from the environment lives in memory only, like one typed in.
      const secrets = memorySecretStore();
      if (process.env.TRACKWATCH_PASSWORD) secrets.set('nadeo.password', process.env.TRACKWATCH_PASSWORD);
      if (process.env.TRACKWATCH_OAUTH_CLIENT_SECRET) secrets.set('oauth.clientSecret', process.env.TRACKWATCH_OAUTH_CLIENT_SECRET);
      let mode;
      try {
        mode = await startBrowserMode({
          dataDir: resolveDataDir({ flag: globals.dataDir }),
          apiUrl: globals.apiUrl ?? process.env.TRACKWATCH_API_URL,
          oauthUrl: process.env.TRACKWATCH_OAUTH_URL,
          port,
          secrets,
        });
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        throw new UserError(/EADDRINUSE/.test(message) ? `port ${port} is taken; choose another with --port.` : message);
      }
      process.stdout.write(`Trackwatch is open at\n\n  ${mode.bridge.url}\n\nOnly this URL (with its token) opens it. Press Ctrl+C to stop.\n`);
      await new Promise<void>((resolve) => {
        process.once('SIGINT', resolve);
        process.once('SIGTERM', resolve);
      });
      process.stdout.write('Stopping…\n');
      await mode.close();
    });
}
