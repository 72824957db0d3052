// Bounded little-endian reads over a byte range, and the body's shared table of lookback strings ("ids").
import { GbxError, hex32, type GbxErrorCode } from './errors.ts';
import { GBX_LIMITS } from './limits.ts';

const utf8 = new TextDecoder('utf-8');
/** The longest string made from its codes. */
const SHORT_STRING = 64;
/** A list of codes per length, shared (a read is synchronous): setting a list's length costs more than the copy. */
const shortCodes: number[][] = Array.from({ length: SHORT_STRING + 1 }, (_, n) => new Array<number>(n).fill(0));

/** A value an id holds: a string, a number (a collection or a numeric id), or null when it cannot be known. */
export type IdValue = string | number | null;

/**
 * The lookback-string table of one body (docs/gbx.md, "Ids"). `stepped` is set once a skippable chunk was stepped over
 * unread: it may have held the table's version word and strings, so later ids read with that uncertainty in mind.
 */
export interface IdTable {
  version: number | undefined;
  /** Where each string of the table starts (its length word): decoded only when an id refers to it. */
  strings: number[];
  stepped: boolean;
}

export function newIdTable(): IdTable {
  return { version: undefined, strings: [], stepped: false };
}

export class ByteReader {
  readonly bytes: Uint8Array;
  offset: number;
  /** Where the bytes being read end: narrowed to a chunk's while it is read in place (within). */
  end: number;
  #ids: IdTable | undefined;
  /** Where this reader reads: a phrase ("the header"), or the ID of the chunk it is the data of. */
  #where: string | number;
  /** What running past `end` means: the file is short ('truncated'), or a chunk is longer than it says ('corrupt'). */
  overrun: GbxErrorCode;

  constructor(bytes: Uint8Array, where: string | number, offset = 0, end = bytes.length, ids?: IdTable, overrun: GbxErrorCode = 'truncated') {
    this.bytes = bytes;
    this.offset = offset;
    this.end = end;
    this.#ids = ids;
    this.#where = where;
    this.overrun = overrun;
  }

  /** The body's id table, shared with the readers of its chunks (made when first needed). */
  get ids(): IdTable {
    this.#ids ??= newIdTable();
    return this.#ids;
  }

  /** For messages: "the header", "the body", "chunk 0x03092000" (made only when a message needs it). */
  get where(): string {
    return typeof this.#where === 'number' ? `chunk ${hex32(this.#where)}` : this.#where;
  }

  get remaining(): number {
    return this.end - this.offset;
  }

  /** The next `length` bytes as a reader of their own (chunk `chunkId`'s data), sharing the id table. */
  sub(length: number, chunkId: number | string): ByteReader {
    this.need(length);
    const sub = new ByteReader(this.bytes, chunkId, this.offset, this.offset + length, this.ids, 'corrupt');
    this.offset += length;
    return sub;
  }

  /**
   * Reads the next `length` bytes as chunk `chunkId`'s data with `read`, in this reader narrowed to them (no reader
   * made per chunk): past them is 'corrupt'. Returns how many of them `read` left unread; the reader is then after them.
   * When `read` throws, the reader is widened again where it stopped: a reader that catches a nested chunk's error (the
   * ghost's nickname, ghost.ts) goes on within its own chunk, as with a reader of its own.
   */
  within<S, W>(length: number, chunkId: number, read: (r: ByteReader, state: S, walk: W) => void, state: S, walk: W): number {
    this.need(length);
    const end = this.end;
    const where = this.#where;
    const overrun = this.overrun;
    const chunkEnd = this.offset + length;
    this.end = chunkEnd;
    this.#where = chunkId;
    this.overrun = 'corrupt';
    try {
      read(this, state, walk);
    } finally {
      this.end = end;
      this.#where = where;
      this.overrun = overrun;
    }
    const left = chunkEnd - this.offset;
    this.offset = chunkEnd;
    return left;
  }

  need(length: number): void {
    if (length > this.end - this.offset) {
      throw new GbxError(this.overrun, this.overrun === 'truncated' ? `the file ends early (in ${this.where})` : `${this.where} is longer than its declared size`);
    }
  }

  u8(): number {
    this.need(1);
    return this.bytes[this.offset++]!;
  }

  u16(): number {
    this.need(2);
    const value = this.bytes[this.offset]! | (this.bytes[this.offset + 1]! << 8);
    this.offset += 2;
    return value;
  }

  /** Little-endian, read from the bytes directly: cheaper than a DataView per reader. */
  u32(): number {
    return this.i32() >>> 0;
  }

  i32(): number {
    const at = this.offset;
    if (this.end - at < 4) this.need(4);
    const b = this.bytes;
    this.offset = at + 4;
    return b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24);
  }

  peekU32(): number | undefined {
    return this.end - this.offset >= 4 ? this.peekI32() >>> 0 : undefined;
  }

  /** The next word as a signed 32-bit value (markers compare as such: no boxing of values above 2^30), or 0 at the end. */
  peekI32(): number {
    const at = this.offset;
    if (this.end - at < 4) return 0;
    const b = this.bytes;
    return b[at]! | (b[at + 1]! << 8) | (b[at + 2]! << 16) | (b[at + 3]! << 24);
  }

  skip(length: number): void {
    this.need(length);
    this.offset += length;
  }

  /** A u32 count of items of at least `minItemBytes` each: refused when the bytes left cannot hold it (a lying count). */
  count(what: string, minItemBytes: number, cap = Number.MAX_SAFE_INTEGER): number {
    const n = this.u32();
    if (n > cap) throw new GbxError('too-large', `${this.where} claims ${n} ${what} (this reader takes at most ${cap})`);
    if (n * minItemBytes > this.remaining) throw new GbxError('corrupt', `${this.where} claims ${n} ${what}, more than its bytes can hold`);
    return n;
  }

  #stringLength(cap: number): number {
    const length = this.u32();
    if (length > cap) throw new GbxError('too-large', `${this.where} holds a string of ${length} bytes (at most ${cap} taken)`);
    this.need(length);
    return length;
  }

  /** A u32-length UTF-8 string of at most `cap` bytes. */
  string(cap: number = GBX_LIMITS.stringBytes): string {
    const length = this.#stringLength(cap);
    const start = this.offset;
    this.offset += length;
    // Most strings in a ghost are short ASCII (logins, UIDs): made in one call from their codes, without the decoder's
    // per-call cost or a string per character.
    if (length <= SHORT_STRING) {
      const codes = shortCodes[length]!;
      for (let i = 0; i < length; i++) {
        const code = this.bytes[start + i]!;
        if (code >= 0x80) return utf8.decode(this.bytes.subarray(start, start + length));
        codes[i] = code;
      }
      return String.fromCharCode.apply(null, codes);
    }
    return utf8.decode(this.bytes.subarray(start, start + length));
  }

  /** A string this reader has no use for, stepped over (its length checked like any string's). */
  skipString(): void {
    const length = this.#stringLength(GBX_LIMITS.stringBytes);
    this.offset += length;
  }

  /** A lookback string (docs/gbx.md, "Ids"). */
  id(): IdValue {
    return this.#id(true);
  }

  /** A lookback string whose value is not needed: stepped over, but still numbered for the ids that refer to it. */
  skipId(): void {
    this.#id(false);
  }

  #id(wanted: boolean): IdValue {
    const table = this.ids;
    if (table.version === undefined) {
      // The version word comes before the first id of the body; after a chunk stepped over unread it may be gone.
      if (!table.stepped || this.peekI32() === 3) {
        const version = this.u32();
        if (version !== 3) throw new GbxError('corrupt', `${this.where} has ids of version ${version} (3 expected)`);
      }
      table.version = 3;
    }
    const index = this.i32();
    if (index === -1) return '';
    const kind = index >>> 30;
    if (kind !== 1 && kind !== 2) return index >>> 0;
    const position = index & 0x3fffffff;
    if (position === 0) {
      table.strings.push(this.offset);
      if (wanted) return this.string();
      this.skipString();
      return null;
    }
    const at = table.strings[position - 1];
    if (at !== undefined) return wanted ? this.#stringAt(at) : null;
    if (table.stepped) return null;
    throw new GbxError('corrupt', `${this.where} refers to id ${hex32(index)}, which was never defined`);
  }

  /** The string whose length word is at `at` (read before, so known to be whole). */
  #stringAt(at: number): string {
    const saved = this.offset;
    this.offset = at;
    const text = this.string();
    this.offset = saved;
    return text;
  }
}
