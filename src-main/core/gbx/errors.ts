// The one error a Gbx file can raise: a stable code and a one-line message saying what is wrong with the file.

export type GbxErrorCode =
  /** 0 bytes. */
  | 'empty'
  /** Does not start with "GBX": another kind of file renamed .gbx. */
  | 'not-gbx'
  /** A Gbx this reader does not handle: a text-format file, an old version, a class other than a ghost or a replay. */
  | 'unsupported'
  /** The data ends before what it announces. */
  | 'truncated'
  /** Over a cap this reader keeps on what a file may claim (docs/gbx.md, "Limits"). */
  | 'too-large'
  /** The bytes contradict themselves: a lying size, a broken LZO stream, an unknown chunk, a chunk loop. */
  | 'corrupt';

export class GbxError extends Error {
  readonly code: GbxErrorCode;
  constructor(code: GbxErrorCode, message: string) {
    super(message);
    this.name = 'GbxError';
    this.code = code;
  }
}

/** 0x03092005 → `0x03092005`: how chunk and class IDs are written in messages and docs. */
export function hex32(value: number): string {
  return `0x${(value >>> 0).toString(16).toUpperCase().padStart(8, '0')}`;
}
