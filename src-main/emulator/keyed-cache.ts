// What the emulator works out from a map or a dataset (a crowd, its index, its names), kept beside that object while
// the facts it was made from stay the same: a key names them, and another key makes it again.
export class KeyedCache<O extends object, V> {
  readonly #entries = new WeakMap<O, { key: string; value: V }>();

  /** The value kept for `owner` under `key`, made with `make` when there is none or it was made from other facts. */
  get(owner: O, key: string, make: () => V): V {
    const cached = this.#entries.get(owner);
    if (cached?.key === key) return cached.value;
    const value = make();
    this.#entries.set(owner, { key, value });
    return value;
  }
}
