import { messageOf } from '../api/errors.ts';

/** One thing a view loads: the latest answer wins, an older slower one is dropped. */
export class Resource<T> {
  #value = $state.raw<T | undefined>();
  #error = $state<string | null>(null);
  #loading = $state(false);
  #seq = 0;

  get value(): T | undefined {
    return this.#value;
  }
  get error(): string | null {
    return this.#error;
  }
  get loading(): boolean {
    return this.#loading;
  }

  async load(fetcher: () => Promise<T>, options: { keep?: boolean } = {}): Promise<void> {
    const seq = ++this.#seq;
    this.#loading = true;
    if (!options.keep) this.#value = undefined;
    try {
      const value = await fetcher();
      if (seq !== this.#seq) return;
      this.#value = value;
      this.#error = null;
    } catch (error) {
      if (seq !== this.#seq) return;
      this.#error = messageOf(error);
    } finally {
      if (seq === this.#seq) this.#loading = false;
    }
  }

  set(value: T): void {
    this.#seq++;
    this.#value = value;
  }
}
