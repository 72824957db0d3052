// The desktop app's Electron fuses (issue 9 §8), read and checked by electron-builder's own configuration loader:
// the key is the one electron-builder 26 knows (a misspelt one fails its schema), and each fuse is as it must be.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '../../..');
const require = createRequire(join(ROOT, 'package.json'));

interface BuilderConfig {
  electronFuses?: Record<string, boolean>;
  asar?: boolean | { disableIntegrity?: boolean } | null;
}

async function loadConfig(): Promise<{ config: BuilderConfig; validate: (c: BuilderConfig) => Promise<void> }> {
  // electron-builder's own loader and schema check, as `electron-builder` runs them before packing.
  const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
    getConfig(projectDir: string, configPath: string | null, fromOptions: null): Promise<BuilderConfig>;
    validateConfiguration(config: BuilderConfig, logger: unknown): Promise<void>;
  };
  const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
  const config = await getConfig(ROOT, null, null);
  return { config, validate: (c) => validateConfiguration(c, new DebugLogger(false)) };
}

describe('electron-builder.yml', () => {
  it('flips the fuses: no run-as-node, no NODE_OPTIONS, ASAR integrity, the app only from its ASAR', async () => {
    const { config, validate } = await loadConfig();
    await validate(config);
    expect(config.electronFuses).toMatchObject({
      runAsNode: false,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
    });
    // Integrity validation means something only when the app is an ASAR whose hash is embedded.
    expect(config.asar === false || (typeof config.asar === 'object' && config.asar?.disableIntegrity === true)).toBe(false);
  });

  it('a fuse electron-builder does not know is refused by its schema (so the names above are the real ones)', async () => {
    const { config, validate } = await loadConfig();
    await expect(validate({ ...config, electronFuses: { ...config.electronFuses, runAsNodee: false } })).rejects.toThrow(/electronFuses/);
  });
});
