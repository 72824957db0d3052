import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { keychainAvailable, keychainSecretStore } from '../../../src-main/app/secrets.ts';

/** Stands in for the OS keychain: reversible, but nothing like the plain text. */
function fakeSafeStorage(o: { available?: boolean; backend?: string } = {}) {
  return {
    isEncryptionAvailable: () => o.available ?? true,
    getSelectedStorageBackend: () => o.backend ?? 'gnome_libsecret',
    encryptString: (text: string) => Buffer.from(`sealed:${Buffer.from(text).reverse().toString('hex')}`),
    decryptString: (sealed: Buffer) => {
      const text = sealed.toString();
      if (!text.startsWith('sealed:')) throw new Error('not ours');
      return Buffer.from(text.slice(7), 'hex').reverse().toString();
    },
  } as never;
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('secrets', () => {
  it('keeps only ciphertext on disk and reads it back', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tw-secrets-'));
    dirs.push(dir);
    const file = path.join(dir, 'secrets.bin');
    const store = keychainSecretStore(fakeSafeStorage(), file, 'linux');
    expect(store.kind).toBe('keychain');
    store.set('nadeo.password', 'hunter2-correct-horse');
    expect(readFileSync(file, 'utf8')).not.toContain('hunter2');
    expect(keychainSecretStore(fakeSafeStorage(), file, 'linux').get('nadeo.password')).toBe('hunter2-correct-horse');
    store.delete('nadeo.password');
    expect(store.get('nadeo.password')).toBeUndefined();
  });

  it('falls back to memory when there is no real keychain (Linux basic_text is a fixed key)', () => {
    expect(keychainAvailable(fakeSafeStorage({ backend: 'basic_text' }), 'linux')).toBe(false);
    expect(keychainAvailable(fakeSafeStorage({ available: false }), 'darwin')).toBe(false);
    expect(keychainAvailable(fakeSafeStorage({ backend: 'basic_text' }), 'win32')).toBe(true);
    const store = keychainSecretStore(fakeSafeStorage({ backend: 'basic_text' }), '/nonexistent/secrets.bin', 'linux');
    expect(store.kind).toBe('memory');
    store.set('nadeo.password', 'x');
    expect(store.get('nadeo.password')).toBe('x');
  });
});
