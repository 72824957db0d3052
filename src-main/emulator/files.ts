// The bytes of the files the emulator serves: replays, map files and thumbnails.
import type { DatasetMap, DatasetRecord } from './dataset.ts';
import { bytesFromName, fnv1a } from './prng.ts';

/** GBX magic, format version 6, "BUCR" (byte order, uncompressed/compressed flags) like a real file's header. */
const GBX_PREFIX = Buffer.from([0x47, 0x42, 0x58, 0x06, 0x00, 0x42, 0x55, 0x43, 0x52]);

function gbxFile(header: string, name: string, length: number): Buffer {
  const text = Buffer.from(header, 'utf8');
  const filler = bytesFromName(name, Math.max(0, length - GBX_PREFIX.length - text.length));
  return Buffer.concat([GBX_PREFIX, text, filler]);
}

/**
 * Exactly the bytes served for a record's replay: its replayBase64, or a few KB that depend on the record's ID
 * and result (a new record gets new bytes), starting with "GBX".
 */
export function replayBytesFor(record: DatasetRecord): Buffer {
  if (record.replayBase64 !== undefined) return Buffer.from(record.replayBase64, 'base64');
  const { time, score } = record.recordScore;
  const name = `replay|${record.mapRecordId}|${time}|${score}`;
  const header = `trackwatch-emulator replay map=${record.mapId} account=${record.accountId} record=${record.mapRecordId} time=${time} score=${score}\n`;
  return gbxFile(header, name, 2048 + (fnv1a(name) % 4096));
}

/** A map file: a few KB, the same for the same map. */
export function mapFileBytes(map: DatasetMap): Buffer {
  const name = `map|${map.mapId}`;
  return gbxFile(`trackwatch-emulator map uid=${map.mapUid}\n`, name, 3072 + (fnv1a(name) % 4096));
}

/** A real 1x1 baseline JPEG (286 bytes, made with cjpeg), served for every thumbnail. */
export const THUMBNAIL_JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/2wBDAQkJCQwLDBgNDRgyIRwhMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjIyMjL/wAARCAABAAEDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAH/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFQEBAQAAAAAAAAAAAAAAAAAAAwb/xAAUEQEAAAAAAAAAAAAAAAAAAAAA/9oADAMBAAIRAxEAPwCgDRz/2Q==',
  'base64',
);
