// Secrets encrypted by the OS keychain through safeStorage; the file on disk holds only ciphertext.
import { readFileSync, renameSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import type { SafeStorage } from 'electron';
import { memorySecretStore } from '../service/secrets.ts';
import type { SecretName, SecretStore } from '../service/secrets.ts';

/** True when safeStorage really uses the OS keychain; Linux's 'basic_text' backend is a fixed key, so it is not. */
export function keychainAvailable(safeStorage: SafeStorage, platform: NodeJS.Platform = process.platform): boolean {
  if (!safeStorage.isEncryptionAvailable()) return false;
  if (platform === 'linux') {
    const backend = safeStorage.getSelectedStorageBackend();
    return backend !== 'basic_text' && backend !== 'unknown';
  }
  return true;
}

export function keychainSecretStore(safeStorage: SafeStorage, file: string, platform: NodeJS.Platform = process.platform): SecretStore {
  if (!keychainAvailable(safeStorage, platform)) return memorySecretStore();
  const read = (): Record<string, string> => {
    try {
      const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
      return parsed && typeof parsed === 'object' ? (parsed as Record<string, string>) : {};
    } catch {
      return {};
    }
  };
  const write = (values: Record<string, string>): void => {
    mkdirSync(path.dirname(file), { recursive: true });
    const temp = `${file}.tmp`;
    writeFileSync(temp, JSON.stringify(values), { mode: 0o600 });
    renameSync(temp, file);
  };
  return {
    kind: 'keychain',
    get(name: SecretName) {
      const sealed = read()[name];
      if (!sealed) return undefined;
      try {
        return safeStorage.decryptString(Buffer.from(sealed, 'base64'));
      } catch {
        return undefined; // another user's keychain, or a reset one: ask again rather than fail
      }
    },
    set(name: SecretName, value: string) {
      write({ ...read(), [name]: safeStorage.encryptString(value).toString('base64') });
    },
    delete(name: SecretName) {
      const values = read();
      delete values[name];
      write(values);
    },
  };
}
