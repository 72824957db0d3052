// An LZO1X compressor for the files the emulator serves (docs/gbx.md, "LZO1X"), written for this project: greedy
// matches found through a hash of the next 4 bytes (looking less often where nothing repeats), encoded with the format's long (M2, M3, M4) matches only.

const HASH_BITS = 14;
const MIN_MATCH = 4;
/** The farthest an M4 match reaches back. */
const MAX_DISTANCE = 0xbfff;

class Output {
  bytes: Uint8Array;
  length = 0;
  constructor(capacity: number) {
    this.bytes = new Uint8Array(capacity);
  }
  push(value: number): void {
    this.bytes[this.length++] = value;
  }
  /** A run length beyond what an instruction's own bits hold: 0 for each 255, then the rest. */
  pushLength(rest: number): void {
    while (rest > 255) {
      this.push(0);
      rest -= 255;
    }
    this.push(rest);
  }
}

function emitLiterals(out: Output, src: Uint8Array, from: number, to: number): void {
  const count = to - from;
  if (count === 0) return;
  if (out.length === 0 && count <= 238) out.push(17 + count);
  else if (count <= 3) out.bytes[out.length - 2]! |= count; // rides in the previous match's last-but-one byte
  else if (count <= 18) out.push(count - 3);
  else {
    out.push(0);
    out.pushLength(count - 18);
  }
  out.bytes.set(src.subarray(from, to), out.length);
  out.length += count;
}

function emitMatch(out: Output, distance: number, length: number): void {
  if (length <= 8 && distance <= 0x0800) {
    const d = distance - 1;
    out.push(((length - 1) << 5) | ((d & 7) << 2));
    out.push(d >> 3);
    return;
  }
  let d: number;
  if (distance <= 0x4000) {
    d = distance - 1;
    if (length - 2 <= 31) out.push(32 | (length - 2));
    else {
      out.push(32);
      out.pushLength(length - 2 - 31);
    }
  } else {
    d = distance - 0x4000;
    const high = (d & 0x4000) >> 11;
    if (length - 2 <= 7) out.push(16 | high | (length - 2));
    else {
      out.push(16 | high);
      out.pushLength(length - 2 - 7);
    }
  }
  out.push((d & 63) << 2);
  out.push((d >> 6) & 0xff);
}

/**
 * Where each hashed 4-byte sequence was last seen, kept across calls (clearing 64 KB per file would cost more than
 * the file): an entry holds `base + position`, and entries below this call's base are from earlier calls.
 */
const table = new Int32Array(1 << HASH_BITS);
let base = 1;

/** Compresses `src` into one LZO1X stream, ending with the end marker 0x11 0x00 0x00. */
export function compressLzo1x(src: Uint8Array): Uint8Array {
  const n = src.length;
  const out = new Output(n + (n >> 4) + 64 + 3);
  const view = new DataView(src.buffer, src.byteOffset, src.byteLength);
  if (base + n + 1 > 0x7fffffff) {
    table.fill(0);
    base = 1;
  }
  let anchor = 0;
  let ip = 0;
  let misses = 0;
  while (ip + MIN_MATCH <= n) {
    const sequence = view.getUint32(ip, true);
    const slot = Math.imul(sequence, 0x9e3779b1) >>> (32 - HASH_BITS);
    const candidate = table[slot]! - base;
    table[slot] = base + ip;
    if (candidate >= 0 && ip - candidate <= MAX_DISTANCE && view.getUint32(candidate, true) === sequence) {
      let length = MIN_MATCH;
      while (ip + length < n && src[candidate + length] === src[ip + length]) length++;
      emitLiterals(out, src, anchor, ip);
      emitMatch(out, ip - candidate, length);
      ip += length;
      anchor = ip;
      misses = 0;
    } else {
      // Through data that does not repeat (the zlib-compressed samples), look less and less often.
      ip += 1 + (misses++ >> 5);
    }
  }
  emitLiterals(out, src, anchor, n);
  base += n + 1;
  out.push(0x11);
  out.push(0);
  out.push(0);
  return out.bytes.subarray(0, out.length);
}
