// Non-secret preferences as JSON values. Secrets (passwords, tokens, client secrets) belong in the OS keychain.
import type { RepoContext } from './context.ts';
import { invalidInput } from './errors.ts';
import { describe } from './ids.ts';

/** The account comparisons measure deltas to ("me"), when the player said which one is theirs. */
const ME = 'me';

/**
 * The account the last sync read the records with (the `sub` of its Core token): the service never hides that
 * account's own records (docs/game-rules.md "Secret entries"). null: read without an account; absent: not known.
 */
const VIEWER = 'viewer';

/** A key that names a secret (…Password, …Secret, …Token) is refused, so one cannot land in a plain file by mistake. */
const SECRET_KEY = /(password|passwd|secret|token|credentials?|api[-_]?key|cookie)$/i;

export type SettingValue = string | number | boolean | null | SettingValue[] | { [key: string]: SettingValue };

export class SettingsRepo {
  readonly #ctx: RepoContext;
  readonly #get;
  readonly #all;
  readonly #set;
  readonly #delete;

  constructor(ctx: RepoContext) {
    this.#ctx = ctx;
    const { db } = ctx;
    this.#get = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
    this.#all = db.prepare<[], { key: string; value: string }>('SELECT key, value FROM settings ORDER BY key');
    this.#set = db.prepare<[string, string, string]>(
      `INSERT INTO settings (key, value, updated_at) VALUES (?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`,
    );
    this.#delete = db.prepare<[string]>('DELETE FROM settings WHERE key = ?');
  }

  get(key: string): SettingValue | undefined {
    const row = this.#get.get(checkKey(key));
    return row === undefined ? undefined : (JSON.parse(row.value) as SettingValue);
  }

  all(): Record<string, SettingValue> {
    return Object.fromEntries(this.#all.all().map((r) => [r.key, JSON.parse(r.value) as SettingValue]));
  }

  /** Stores a JSON value; undefined removes the key. */
  set(key: string, value: SettingValue | undefined): void {
    const k = checkKey(key);
    if (value === undefined) {
      this.#delete.run(k);
      return;
    }
    const json = JSON.stringify(value);
    if (json === undefined) throw invalidInput(`setting ${describe(k)} cannot be stored as JSON`);
    this.#set.run(k, json, this.#ctx.now());
  }

  delete(key: string): void {
    this.#delete.run(checkKey(key));
  }

  /** The player's own account ("me"), when they said which one it is. */
  me(): string | undefined {
    const value = this.get(ME);
    return typeof value === 'string' ? value : undefined;
  }

  /** Names the player's own account (stored lower case, as account IDs are); undefined forgets it. */
  setMe(accountId: string | undefined): void {
    this.set(ME, accountId?.trim().toLowerCase());
  }

  /** The account the records were read with: an account ID, null (read without one), or undefined (not known). */
  viewer(): string | null | undefined {
    const value = this.get(VIEWER);
    return typeof value === 'string' || value === null ? value : undefined;
  }

  /** Remembers which account read the records (lower case); undefined: not known. */
  setViewer(accountId: string | null | undefined): void {
    this.set(VIEWER, typeof accountId === 'string' ? accountId.trim().toLowerCase() : accountId);
  }
}

function checkKey(key: unknown): string {
  if (typeof key !== 'string' || !/^[A-Za-z][A-Za-z0-9_.-]{0,99}$/.test(key)) {
    throw invalidInput(`a setting key is a short name of letters, digits, '.', '_' or '-', got ${describe(key)}`);
  }
  if (SECRET_KEY.test(key)) throw invalidInput(`settings hold no secrets; ${describe(key)} belongs in the OS keychain`);
  return key;
}
