// The byte reader's chunk narrowing (ByteReader.within): a chunk is read in the same reader, narrowed to its bytes and
// widened again after, also when a nested chunk's read fails and an outer reader goes on (the ghost's nickname).
import { describe, expect, it } from 'vitest';
import { ByteReader } from '../../../src-main/core/gbx/reader.ts';
import { GbxError } from '../../../src-main/core/gbx/errors.ts';

const noop = (): void => {};

describe('ByteReader.within', () => {
  it('narrows the reader to the chunk, says what was left unread, and leaves it after the chunk', () => {
    const r = new ByteReader(new Uint8Array(16), 'the body');
    r.skip(2);
    const left = r.within(8, 0x03092000, (inner) => {
      expect(inner.remaining).toBe(8);
      expect(inner.where).toBe('chunk 0x03092000');
      inner.skip(3);
    }, undefined, undefined);
    expect(left).toBe(5);
    expect([r.offset, r.remaining, r.where, r.overrun]).toEqual([10, 6, 'the body', 'truncated']);
    expect(() => r.within(8, 0x03092001, noop, undefined, undefined)).toThrow(/ends early \(in the body\)/);
  });

  it('reading past a chunk is corrupt, named by the chunk', () => {
    const r = new ByteReader(new Uint8Array(16), 'the body');
    expect(() => r.within(4, 0x03092002, (inner) => inner.skip(5), undefined, undefined)).toThrow(/chunk 0x03092002 is longer than its declared size/);
  });

  it('an outer chunk that catches a nested chunk\'s error goes on within its own bytes', () => {
    const r = new ByteReader(new Uint8Array(32), 'the body');
    const left = r.within(20, 0x03092000, (outer) => {
      outer.skip(2);
      try {
        outer.within(6, 0x03043000, (nested) => nested.skip(7), undefined, undefined);
      } catch (error) {
        expect(error).toBeInstanceOf(GbxError);
      }
      // Widened back to the outer chunk where the nested read stopped: its own end, name and overrun.
      expect([outer.remaining, outer.where, outer.overrun]).toEqual([18, 'chunk 0x03092000', 'corrupt']);
      outer.skip(outer.remaining);
    }, undefined, undefined);
    expect(left).toBe(0);
    expect([r.offset, r.remaining, r.where, r.overrun]).toEqual([20, 12, 'the body', 'truncated']);
  });
});
