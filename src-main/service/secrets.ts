// Where passwords live. The desktop app keeps them in the OS keychain (Electron's safeStorage); without one,
// and in browser mode, they stay in memory until the app stops. Never in plain text on disk.

export type SecretName = 'nadeo.password' | 'oauth.clientSecret';

export interface SecretStore {
  readonly kind: 'keychain' | 'memory';
  get(name: SecretName): string | undefined;
  set(name: SecretName, value: string): void;
  delete(name: SecretName): void;
}

export function memorySecretStore(): SecretStore {
  const values = new Map<SecretName, string>();
  return {
    kind: 'memory',
    get: (name) => values.get(name),
    set: (name, value) => void values.set(name, value),
    delete: (name) => void values.delete(name),
  };
}
