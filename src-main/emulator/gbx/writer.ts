// Writes Gbx files as the game does (docs/gbx.md): little-endian values, lookback strings, skippable chunks, and
// the container around a body (header, header chunks, node count, empty reference table, LZO1X-compressed body).
import { compressLzo1x } from './lzo.ts';

const utf8 = new TextEncoder();
export const END_OF_NODE = 0xfacade01;
const SKIPPABLE = 0x534b4950;

export class ByteWriter {
  #bytes: Uint8Array;
  #view: DataView;
  length = 0;
  /** Lookback strings of this body: the version word goes before the first id (docs/gbx.md, "Ids"). */
  #ids: string[] | undefined;

  constructor(capacity = 256) {
    this.#bytes = new Uint8Array(capacity);
    this.#view = new DataView(this.#bytes.buffer);
  }

  #room(extra: number): void {
    if (this.length + extra <= this.#bytes.length) return;
    let capacity = this.#bytes.length * 2;
    while (capacity < this.length + extra) capacity *= 2;
    const grown = new Uint8Array(capacity);
    grown.set(this.#bytes.subarray(0, this.length));
    this.#bytes = grown;
    this.#view = new DataView(grown.buffer);
  }

  u8(value: number): this {
    this.#room(1);
    this.#bytes[this.length++] = value;
    return this;
  }

  u32(value: number): this {
    this.#room(4);
    this.#view.setUint32(this.length, value >>> 0, true);
    this.length += 4;
    return this;
  }

  i32(value: number): this {
    this.#room(4);
    this.#view.setInt32(this.length, value | 0, true);
    this.length += 4;
    return this;
  }

  f32(value: number): this {
    this.#room(4);
    this.#view.setFloat32(this.length, value, true);
    this.length += 4;
    return this;
  }

  /** Room for `length` bytes that `fill` writes into the buffer at the offset it is given. */
  fill(length: number, fill: (buffer: Uint8Array, offset: number) => void): this {
    this.#room(length);
    fill(this.#bytes, this.length);
    this.length += length;
    return this;
  }

  bytes(data: Uint8Array): this {
    this.#room(data.length);
    this.#bytes.set(data, this.length);
    this.length += data.length;
    return this;
  }

  string(text: string): this {
    const data = utf8.encode(text);
    return this.u32(data.length).bytes(data);
  }

  /** A lookback string: new ones are written out and numbered, repeats refer back; a number is written as is. */
  id(value: string | number): this {
    if (this.#ids === undefined) {
      this.#ids = [];
      this.u32(3);
    }
    if (typeof value === 'number') return this.u32(value);
    if (value === '') return this.u32(0xffffffff);
    const known = this.#ids.indexOf(value);
    if (known >= 0) return this.u32(0x40000000 | (known + 1));
    this.#ids.push(value);
    return this.u32(0x40000000).string(value);
  }

  /** A chunk a reader must understand: its ID, then what `write` writes. */
  chunk(id: number, write: (w: this) => void): this {
    this.u32(id);
    write(this);
    return this;
  }

  /** A chunk a reader may step over: ID, "PIKS", the size, then the data (ids stay shared with the body). */
  skippable(id: number, write: (w: this) => void): this {
    this.u32(id).u32(SKIPPABLE);
    const sizeAt = this.length;
    this.u32(0);
    write(this);
    this.#view.setUint32(sizeAt, this.length - sizeAt - 4, true);
    return this;
  }

  endNode(): this {
    return this.u32(END_OF_NODE);
  }

  /** The bytes written (a view: the writer is done with). */
  finish(): Uint8Array {
    return this.#bytes.subarray(0, this.length);
  }
}

export interface HeaderChunkSpec {
  id: number;
  data: Uint8Array;
  heavy?: boolean;
}

export interface GbxFileSpec {
  classId: number;
  headerChunks: HeaderChunkSpec[];
  /** One more than the highest node index the body uses (the body's own node is 0). */
  nodeCount: number;
  body: Uint8Array;
  /** "C": an LZO1X-compressed body, as the game writes; "U": the body as is. */
  compressBody: boolean;
}

export function writeGbxFile(spec: GbxFileSpec): Uint8Array {
  const w = new ByteWriter(spec.body.length + (spec.body.length >> 4) + 1024);
  w.bytes(utf8.encode('GBX'));
  w.u8(6).u8(0); // version 6
  w.bytes(utf8.encode(spec.compressBody ? 'BUCR' : 'BUUR'));
  w.u32(spec.classId);
  if (spec.headerChunks.length === 0) w.u32(0);
  else {
    const dataSize = spec.headerChunks.reduce((sum, c) => sum + c.data.length, 0);
    w.u32(4 + 8 * spec.headerChunks.length + dataSize);
    w.u32(spec.headerChunks.length);
    for (const c of spec.headerChunks) w.u32(c.id).u32((c.data.length | (c.heavy ? 0x80000000 : 0)) >>> 0);
    for (const c of spec.headerChunks) w.bytes(c.data);
  }
  w.u32(spec.nodeCount);
  w.u32(0); // no external references
  if (spec.compressBody) {
    const compressed = compressLzo1x(spec.body);
    w.u32(spec.body.length).u32(compressed.length).bytes(compressed);
  } else {
    w.bytes(spec.body);
  }
  return w.finish();
}
