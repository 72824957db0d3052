// The bytes of the files the emulator serves: replays, map files and thumbnails.
import type { Dataset, DatasetMap, DatasetRecord } from './dataset.ts';
import { authorGhostOf, replayMapOf, damage, ghostOfRecord, writeGhostFile, writeReplayFile, type Damage } from './gbx/index.ts';
import { bytesFromName, fnv1a } from './prng.ts';

/** GBX magic, format version 6, "BUCR" (byte order, uncompressed/compressed flags) like a real file's header. */
const GBX_PREFIX = Buffer.from([0x47, 0x42, 0x58, 0x06, 0x00, 0x42, 0x55, 0x43, 0x52]);

function gbxFile(header: string, name: string, length: number): Buffer {
  const text = Buffer.from(header, 'utf8');
  const filler = bytesFromName(name, Math.max(0, length - GBX_PREFIX.length - text.length));
  return Buffer.concat([GBX_PREFIX, text, filler]);
}

const DAMAGES: readonly Damage[] = ['truncated', 'lying-size', 'broken-stream'];

/** One record in 50 is served damaged (docs/gbx.md, "What the emulator serves"), the same ones every time. */
export function replayDamageOf(record: Pick<DatasetRecord, 'mapRecordId'>): Damage | undefined {
  const hash = fnv1a(`damage|${record.mapRecordId}`);
  return hash % 50 === 0 ? DAMAGES[(hash >>> 8) % DAMAGES.length] : undefined;
}

/** One record in four is served as a replay (the map and the ghost), the others as a ghost alone. */
export function replayKindOf(record: Pick<DatasetRecord, 'mapRecordId'>): 'ghost' | 'replay' {
  return fnv1a(`kind|${record.mapRecordId}`) % 4 === 0 ? 'replay' : 'ghost';
}

/**
 * Exactly the bytes served for a record's replay: its replayBase64, else a real-format Gbx ghost or replay of the
 * record's run on its map (gbx/runs.ts), the same for the same record and new for a new one; a few are damaged. The
 * ghost's nickname is `nickname` when given (a crowd player's, whom the dataset does not name), else the dataset's.
 */
export function replayBytesFor(record: DatasetRecord, dataset: Pick<Dataset, 'maps' | 'displayNames'>, nickname?: string): Buffer {
  if (record.replayBase64 !== undefined) return Buffer.from(record.replayBase64, 'base64');
  const map = dataset.maps.find((m) => m.mapId === record.mapId);
  if (map === undefined) throw new Error(`record ${record.mapRecordId} is on map ${record.mapId}, which the dataset does not hold`);
  const ghost = ghostOfRecord(record, map, nickname ?? dataset.displayNames?.[record.accountId]);
  const file = replayKindOf(record) === 'replay'
    ? writeReplayFile({ map: replayMapOf(map), ghosts: [ghost], authorGhost: authorGhostOf(map, record) })
    : writeGhostFile(ghost);
  const broken = replayDamageOf(record);
  const served = broken === undefined ? file : damage(file, broken);
  return Buffer.from(served.buffer, served.byteOffset, served.length);
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
