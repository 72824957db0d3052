// A stream that keeps every byte written to it, as a pipe to a reader would deliver them: what a command printed
// (cli.ts) or an export wrote (the CSV tests), read back whole.
import { Writable } from 'node:stream';

export class Collected extends Writable {
  readonly #chunks: Buffer[] = [];
  readonly #onFirst: (() => void) | undefined;

  /** `onFirst`: called as the first chunk arrives (a test acts at that moment: a commit, an abort). */
  constructor(onFirst?: () => void) {
    super();
    this.#onFirst = onFirst;
  }

  override _write(chunk: Buffer | string, encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    if (this.#chunks.length === 0) this.#onFirst?.();
    this.#chunks.push(Buffer.isBuffer(chunk) ? Buffer.from(chunk) : Buffer.from(chunk, encoding));
    done();
  }

  get bytes(): Buffer {
    return Buffer.concat(this.#chunks);
  }

  text(): string {
    return this.bytes.toString('utf8');
  }
}
