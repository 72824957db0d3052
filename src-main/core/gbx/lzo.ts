// An LZO1X decompressor (the format of a Gbx body, docs/gbx.md "LZO1X"), written for this project: it never reads
// outside its input, never writes past the size the file declares, and never copies from before the output.
import { GbxError } from './errors.ts';

function corrupt(detail: string): GbxError {
  return new GbxError('corrupt', `the compressed body is damaged: ${detail}`);
}

const TRUNCATED = 'its LZO1X stream ends early';

/**
 * Decompresses one LZO1X stream into exactly `outputSize` bytes. A stream that would write more (a decompression
 * bomb), stops short, leaves input unread or refers before the start of the output is refused with a GbxError.
 */
export function decompressLzo1x(input: Uint8Array, outputSize: number): Uint8Array {
  const out = new Uint8Array(outputSize);
  const inEnd = input.length;
  let ip = 0;
  let op = 0;
  let t: number;
  // What the next instruction byte means depends on what came before it (docs/gbx.md, "LZO1X"):
  // 0 = after a match with no trailing literals (t < 16 starts a literal run), 1 = after a literal run of 4 or more
  // (t < 16 is a 3-byte match 2 KB+ back), 2 = after 1-3 trailing literals (t < 16 is a 2-byte near match).
  let state = 0;

  if (inEnd === 0) throw corrupt(TRUNCATED);
  if (input[0]! > 17) {
    t = input[0]! - 17;
    ip = 1;
    if (ip + t > inEnd) throw corrupt(TRUNCATED);
    if (op + t > outputSize) throw bomb(outputSize);
    for (let i = 0; i < t; i++) out[op++] = input[ip++]!;
    state = t < 4 ? 2 : 1;
  }

  for (;;) {
    if (ip >= inEnd) throw corrupt(TRUNCATED);
    t = input[ip++]!;
    let distance: number;
    let length: number;
    if (t < 16) {
      if (state === 0) {
        // A literal run of t + 3 bytes (t = 0: a longer run, 255 more per zero byte).
        if (t === 0) {
          while (ip < inEnd && input[ip] === 0) {
            t += 255;
            ip++;
          }
          if (ip >= inEnd) throw corrupt(TRUNCATED);
          t += 15 + input[ip++]!;
        }
        t += 3;
        if (ip + t > inEnd) throw corrupt(TRUNCATED);
        if (op + t > outputSize) throw bomb(outputSize);
        if (t < 32) for (let i = 0; i < t; i++) out[op++] = input[ip++]!;
        else {
          out.set(input.subarray(ip, ip + t), op);
          ip += t;
          op += t;
        }
        state = 1;
        continue;
      }
      if (ip >= inEnd) throw corrupt(TRUNCATED);
      if (state === 1) {
        distance = 1 + 0x0800 + (t >> 2) + (input[ip++]! << 2);
        length = 3;
      } else {
        distance = 1 + (t >> 2) + (input[ip++]! << 2);
        length = 2;
      }
    } else if (t >= 64) {
      if (ip >= inEnd) throw corrupt(TRUNCATED);
      distance = 1 + ((t >> 2) & 7) + (input[ip++]! << 3);
      length = (t >> 5) + 1;
    } else if (t >= 32) {
      length = t & 31;
      if (length === 0) {
        while (ip < inEnd && input[ip] === 0) {
          length += 255;
          ip++;
        }
        if (ip >= inEnd) throw corrupt(TRUNCATED);
        length += 31 + input[ip++]!;
      }
      length += 2;
      if (ip + 2 > inEnd) throw corrupt(TRUNCATED);
      distance = 1 + (input[ip]! >> 2) + (input[ip + 1]! << 6);
      ip += 2;
    } else {
      length = t & 7;
      if (length === 0) {
        while (ip < inEnd && input[ip] === 0) {
          length += 255;
          ip++;
        }
        if (ip >= inEnd) throw corrupt(TRUNCATED);
        length += 7 + input[ip++]!;
      }
      length += 2;
      if (ip + 2 > inEnd) throw corrupt(TRUNCATED);
      distance = ((t & 8) << 11) + (input[ip]! >> 2) + (input[ip + 1]! << 6);
      ip += 2;
      if (distance === 0) {
        // The end marker (0x11 0x00 0x00): the stream must end here, having filled the output exactly.
        if (ip !== inEnd) throw corrupt(`${inEnd - ip} bytes follow the end of its LZO1X stream`);
        if (op !== outputSize) throw corrupt(`it gives ${op} bytes where the file declares ${outputSize}`);
        return out;
      }
      distance += 0x4000;
    }

    // Copy the match, then the 0-3 literals that the last instruction byte's low bits announce.
    let from = op - distance;
    if (from < 0) throw corrupt('a match refers to before the start of the body');
    if (op + length > outputSize) throw bomb(outputSize);
    if (distance >= length && length >= 32) {
      out.copyWithin(op, from, from + length);
      op += length;
    } else {
      for (let i = 0; i < length; i++) out[op++] = out[from++]!;
    }
    const trailing = input[ip - 2]! & 3;
    if (trailing === 0) {
      state = 0;
      continue;
    }
    if (ip + trailing > inEnd) throw corrupt(TRUNCATED);
    if (op + trailing > outputSize) throw bomb(outputSize);
    for (let i = 0; i < trailing; i++) out[op++] = input[ip++]!;
    state = 2;
  }
}

function bomb(outputSize: number): GbxError {
  return new GbxError('corrupt', `the compressed body decompresses past its declared size of ${outputSize} bytes`);
}
