// Byte-level assembly of Gbx files for the tests, independent of the emulator's writer: every byte is spelled out by
// the test that uses it, with the layout of docs/gbx.md.

export class Bytes {
  readonly parts: number[] = [];
  u8(...values: number[]): this {
    for (const v of values) this.parts.push(v & 0xff);
    return this;
  }
  u16(value: number): this {
    return this.u8(value, value >>> 8);
  }
  u32(value: number): this {
    return this.u8(value, value >>> 8, value >>> 16, value >>> 24);
  }
  ascii(text: string): this {
    for (const c of text) this.parts.push(c.charCodeAt(0));
    return this;
  }
  /** A u32 byte length, then the UTF-8 bytes. */
  str(text: string): this {
    const data = new TextEncoder().encode(text);
    return this.u32(data.length).raw(data);
  }
  raw(data: Iterable<number>): this {
    for (const v of data) this.parts.push(v);
    return this;
  }
  /** A skippable chunk: ID, "PIKS", the size of what `fill` writes, then it. */
  skippable(id: number, fill: (b: Bytes) => void): this {
    const inner = new Bytes();
    fill(inner);
    return this.u32(id).ascii('PIKS').u32(inner.parts.length).raw(inner.parts);
  }
  get length(): number {
    return this.parts.length;
  }
  build(): Uint8Array {
    return Uint8Array.from(this.parts);
  }
}

/** An LZO1X stream of literals only (valid LZO1X): one literal run, then the end marker 0x11 0x00 0x00. */
export function literalLzo(body: Uint8Array): Uint8Array {
  const b = new Bytes();
  const n = body.length;
  if (n > 0 && n <= 238) b.u8(17 + n); // a first byte above 17: that many literals minus 17
  else if (n > 0) {
    b.u8(0); // a literal run whose length continues: 255 for each zero byte, then the rest, plus 18
    let rest = n - 18;
    while (rest > 255) {
      b.u8(0);
      rest -= 255;
    }
    b.u8(rest);
  }
  return b.raw(body).u8(0x11, 0x00, 0x00).build();
}

export interface FileParts {
  classId: number;
  body: Uint8Array;
  /** 'U': the body as is; 'C': LZO1X (literals only), with sizes that can be made to lie. */
  bodyFormat?: 'U' | 'C';
  headerChunks?: { id: number; data: Uint8Array }[];
  nodeCount?: number;
  declaredSize?: number;
  stream?: Uint8Array;
}

/** "GBX", version 6, "BU?R", the class, the header chunks, the node count, an empty reference table, the body. */
export function gbxFile(parts: FileParts): Uint8Array {
  const b = new Bytes().ascii('GBX').u16(6).ascii(`BU${parts.bodyFormat ?? 'U'}R`).u32(parts.classId);
  const chunks = parts.headerChunks ?? [];
  if (chunks.length === 0) b.u32(0);
  else {
    b.u32(4 + 8 * chunks.length + chunks.reduce((s, c) => s + c.data.length, 0)).u32(chunks.length);
    for (const c of chunks) b.u32(c.id).u32(c.data.length);
    for (const c of chunks) b.raw(c.data);
  }
  b.u32(parts.nodeCount ?? 1).u32(0);
  if (parts.bodyFormat === 'C') {
    const stream = parts.stream ?? literalLzo(parts.body);
    b.u32(parts.declaredSize ?? parts.body.length).u32(stream.length).raw(stream);
  } else {
    b.raw(parts.body);
  }
  return b.build();
}

export const GHOST = 0x03092000;
export const REPLAY = 0x03093000;
export const END = 0xfacade01;

/** A ghost node's chunks as TM2020 lays them out, with the values given. */
export interface HandRun {
  time: number;
  respawns: number;
  stunt: number;
  checkpoints: [number, number][];
  login?: string;
  /** Written as the body's first id: the version word 3, then 0x40000000 and the string. */
  mapUid?: string;
  /** Written as a later id referring back to the body's Nth string (0x40000000 | N). */
  mapUidRef?: number;
}

export function ghostChunks(b: Bytes, run: HandRun): Bytes {
  b.u32(0x0303f006).u32(1).u32(0).u32(0); // replaying, no samples
  b.skippable(0x03092005, (c) => c.u32(run.time));
  b.skippable(0x03092008, (c) => c.u32(run.respawns));
  b.skippable(0x0309200a, (c) => c.u32(run.stunt));
  b.skippable(0x0309200b, (c) => {
    c.u32(run.checkpoints.length);
    for (const [time, stunt] of run.checkpoints) c.u32(time).u32(stunt);
  });
  if (run.login !== undefined) b.u32(0x0309200f).str(run.login);
  if (run.mapUid !== undefined) b.u32(0x03092010).u32(3).u32(0x40000000).str(run.mapUid); // id: version 3, a new string
  if (run.mapUidRef !== undefined) b.u32(0x03092010).u32(0x40000000 | run.mapUidRef);
  return b.u32(END);
}
