// Bounded little-endian reads over a byte range, and the body's shared table of lookback strings ("ids").
import { GbxError, hex32, type GbxErrorCode } from './errors.ts';
import { GBX_LIMITS } from './limits.ts';

const utf8 = new TextDecoder('utf-8');

/** A value an id holds: a string, a number (a collection or a numeric id), or null when it cannot be known. */
export type IdValue = string | number | null;

/**
 * The lookback-string table of one body (docs/gbx.md, "Ids"). `stepped` is set once a skippable chunk was stepped over
 * unread: it may have held the table's version word and strings, so later ids read with that uncertainty in mind.
 */
export interface IdTable {
  version: number | undefined;
  strings: string[];
  stepped: boolean;
}

export function newIdTable(): IdTable {
  return { version: undefined, strings: [], stepped: false };
}

export class ByteReader {
  readonly bytes: Uint8Array;
  readonly view: DataView;
  offset: number;
  readonly end: number;
  readonly ids: IdTable;
  /** Where this reader reads, for messages: "the header", "the body", "chunk 0x03092000". */
  readonly where: string;
  /** What running past `end` means: the file is short ('truncated'), or a chunk is longer than it says ('corrupt'). */
  readonly overrun: GbxErrorCode;

  constructor(bytes: Uint8Array, where: string, options: { offset?: number; end?: number; ids?: IdTable; overrun?: GbxErrorCode } = {}) {
    this.bytes = bytes;
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.offset = options.offset ?? 0;
    this.end = options.end ?? bytes.length;
    this.ids = options.ids ?? newIdTable();
    this.where = where;
    this.overrun = options.overrun ?? 'truncated';
  }

  get remaining(): number {
    return this.end - this.offset;
  }

  /** The next `length` bytes as a reader of their own (a skippable chunk's data), sharing the id table. */
  sub(length: number, where: string): ByteReader {
    this.need(length);
    const sub = new ByteReader(this.bytes, where, { offset: this.offset, end: this.offset + length, ids: this.ids, overrun: 'corrupt' });
    this.offset += length;
    return sub;
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

  u32(): number {
    this.need(4);
    const value = this.view.getUint32(this.offset, true);
    this.offset += 4;
    return value;
  }

  i32(): number {
    this.need(4);
    const value = this.view.getInt32(this.offset, true);
    this.offset += 4;
    return value;
  }

  peekU32(): number | undefined {
    return this.end - this.offset >= 4 ? this.view.getUint32(this.offset, true) : undefined;
  }

  skip(length: number): void {
    this.need(length);
    this.offset += length;
  }

  take(length: number): Uint8Array {
    this.need(length);
    const out = this.bytes.subarray(this.offset, this.offset + length);
    this.offset += length;
    return out;
  }

  /** A u32 count of items of at least `minItemBytes` each: refused when the bytes left cannot hold it (a lying count). */
  count(what: string, minItemBytes: number, cap = Number.MAX_SAFE_INTEGER): number {
    const n = this.u32();
    if (n > cap) throw new GbxError('too-large', `${this.where} claims ${n} ${what} (this reader takes at most ${cap})`);
    if (n * minItemBytes > this.remaining) throw new GbxError('corrupt', `${this.where} claims ${n} ${what}, more than its bytes can hold`);
    return n;
  }

  /** A u32-length UTF-8 string of at most `cap` bytes. */
  string(cap: number = GBX_LIMITS.stringBytes): string {
    const length = this.u32();
    if (length > cap) throw new GbxError('too-large', `${this.where} holds a string of ${length} bytes (at most ${cap} taken)`);
    return utf8.decode(this.take(length));
  }

  /** A lookback string (docs/gbx.md, "Ids"). */
  id(): IdValue {
    const table = this.ids;
    if (table.version === undefined) {
      // The version word comes before the first id of the body; after a chunk stepped over unread it may be gone.
      if (!table.stepped || this.peekU32() === 3) {
        const version = this.u32();
        if (version !== 3) throw new GbxError('corrupt', `${this.where} has ids of version ${version} (3 expected)`);
      }
      table.version = 3;
    }
    const index = this.u32();
    if (index === 0xffffffff) return '';
    const kind = index & 0xc0000000;
    if (kind !== 0x40000000 && kind !== 0x80000000) return index;
    const position = index & 0x3fffffff;
    if (position === 0) {
      const text = this.string();
      table.strings.push(text);
      return text;
    }
    const known = table.strings[position - 1];
    if (known !== undefined) return known;
    if (table.stepped) return null;
    throw new GbxError('corrupt', `${this.where} refers to id ${hex32(index)}, which was never defined`);
  }
}
