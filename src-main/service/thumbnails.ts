// Map thumbnails, fetched once by main through the polite client and cached in the data folder, so the page never
// contacts a Nadeo host itself and thumbnails still show offline.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isUuid } from '../shared/ids.ts';
import type { Trackwatch } from '../core/trackwatch.ts';

const MAX_BYTES = 4 * 1024 * 1024;
/** After a failed fetch, leave that map alone for a while rather than asking on every view. */
const RETRY_AFTER_MS = 10 * 60_000;

/** The image type from its first bytes; anything else is not shown. */
export function imageType(bytes: Uint8Array): string | null {
  if (bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  if (bytes[0] === 0x89 && bytes[1] === 0x50 && bytes[2] === 0x4e && bytes[3] === 0x47) return 'image/png';
  if (bytes.length > 11 && String.fromCharCode(...bytes.subarray(0, 4)) === 'RIFF' && String.fromCharCode(...bytes.subarray(8, 12)) === 'WEBP') return 'image/webp';
  return null;
}

export class Thumbnails {
  readonly #failedAt = new Map<string, number>();

  async dataUrl(tw: Trackwatch, mapUid: string, allowNetwork: boolean): Promise<string | null> {
    const map = tw.store.maps.get(mapUid);
    if (!map || !isUuid(map.mapId)) return null;
    const file = join(tw.dataDir, 'thumbnails', `${map.mapId.toLowerCase()}.img`);
    let bytes = await readFile(file).catch(() => null);
    if (!bytes && allowNetwork && map.thumbnailUrl) {
      const failed = this.#failedAt.get(map.mapId);
      if (failed !== undefined && Date.now() - failed < RETRY_AFTER_MS) return null;
      try {
        const result = await tw.client.download(map.thumbnailUrl, file, { maxBytes: MAX_BYTES, dataDir: tw.dataDir });
        if (result.state === 'downloaded') bytes = await readFile(file);
      } catch {
        this.#failedAt.set(map.mapId, Date.now());
        return null;
      }
    }
    if (!bytes) return null;
    const type = imageType(bytes);
    return type ? `data:${type};base64,${bytes.toString('base64')}` : null;
  }
}
