// A zlib stream of stored (uncompressed) deflate blocks (RFC 1950/1951): valid for any zlib reader, the same bytes
// on every machine, and far cheaper to make than calling zlib for every replay served.

const MAX_STORED = 0xffff;

function adler32(data: Uint8Array): number {
  let a = 1;
  let b = 0;
  for (let i = 0; i < data.length; ) {
    const end = Math.min(data.length, i + 3800); // sums stay below 2^31 between reductions
    for (; i < end; i++) {
      a += data[i]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** The length of zlibStored(data) for `length` bytes of data. */
export function zlibStoredLength(length: number): number {
  return 2 + Math.max(1, Math.ceil(length / MAX_STORED)) * 5 + length + 4;
}

export function zlibStored(data: Uint8Array): Uint8Array {
  const out = new Uint8Array(zlibStoredLength(data.length));
  zlibStoredInto(out, 0, data);
  return out;
}

/** Writes zlibStored(data) into `out` at `offset` (zlibStoredLength(data.length) bytes). */
export function zlibStoredInto(out: Uint8Array, offset: number, data: Uint8Array): void {
  const blocks = Math.max(1, Math.ceil(data.length / MAX_STORED));
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  out[offset] = 0x78; // deflate, 32 KB window
  out[offset + 1] = 0x01; // no dictionary, fastest; 0x7801 is a multiple of 31
  let at = offset + 2;
  for (let block = 0; block < blocks; block++) {
    const from = block * MAX_STORED;
    const length = Math.min(MAX_STORED, data.length - from);
    out[at] = block === blocks - 1 ? 1 : 0; // BFINAL, BTYPE 00 (stored)
    view.setUint16(at + 1, length, true);
    view.setUint16(at + 3, ~length & 0xffff, true);
    out.set(data.subarray(from, from + length), at + 5);
    at += 5 + length;
  }
  view.setUint32(at, adler32(data), false);
}
