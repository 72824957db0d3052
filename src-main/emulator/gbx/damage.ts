// Files damaged the way downloads and disks damage them, for the product's "cannot be read" paths (docs/gbx.md).

export type Damage =
  /** The file stops part-way (an interrupted download). */
  | 'truncated'
  /** The body's declared size is larger than what its stream gives (a lying size). */
  | 'lying-size'
  /** The compressed stream's last bytes are zeroed (a damaged disk block): it no longer ends. */
  | 'broken-stream';

/** The same file, damaged; `file` is a compressed-body Gbx as writeGbxFile makes it. */
export function damage(file: Uint8Array, kind: Damage): Uint8Array {
  if (kind === 'truncated') return file.slice(0, Math.floor(file.length * 0.55));
  const out = file.slice();
  const view = new DataView(out.buffer);
  if (kind === 'lying-size') {
    const sizeAt = bodySizeOffset(out);
    view.setUint32(sizeAt, view.getUint32(sizeAt, true) + 1000, true);
  } else {
    out.fill(0, out.length - 16);
  }
  return out;
}

/** Where the body's uncompressed size sits: after the header chunks, the node count and the empty reference table. */
function bodySizeOffset(file: Uint8Array): number {
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const userDataSize = view.getUint32(13, true);
  return 17 + userDataSize + 4 + 4;
}
