// Batching by length: the service's limit is the request-target's length (seed section 8: 8220 characters or
// more gives 414), so a batch holds as many keys as fit, measured on the exact string that will be sent.
import { InputError } from './errors.ts';

/** Longest request-target the service accepts (it answers 414 from 8220 characters). */
export const DEFAULT_MAX_URI_LENGTH = 8219;

export interface PackSpec {
  /** Longest request-target allowed, in characters. */
  limit: number;
  /** Length of the request-target with an empty key list. */
  fixedLength: number;
  /** Characters between two keys (1 for a raw comma; `&accountId[]=` for repeated parameters). */
  separatorLength?: number;
  /** Keys per request at most, when the service also caps the count. */
  maxKeys?: number;
}

/** Length of the request-target holding `keys`, under `spec`. */
export function targetLength(keys: readonly string[], spec: Pick<PackSpec, 'fixedLength' | 'separatorLength'>): number {
  const sep = spec.separatorLength ?? 1;
  let n = spec.fixedLength;
  for (const k of keys) n += k.length;
  return n + Math.max(0, keys.length - 1) * sep;
}

/**
 * Packs keys into as few batches as the length limit allows: first-fit decreasing, which for keys this small
 * next to the limit fills every batch but the last to within one key of full. Keys must already be unique.
 */
export function packByLength(keys: readonly string[], spec: PackSpec): string[][] {
  const sep = spec.separatorLength ?? 1;
  const maxKeys = spec.maxKeys ?? Number.POSITIVE_INFINITY;
  // Each key costs its length plus a separator; the first key of a batch has no separator, so add one back.
  const capacity = spec.limit - spec.fixedLength + sep;
  const order = keys.map((key, index) => ({ key, index })).sort((a, b) => b.key.length - a.key.length || a.index - b.index);
  const bins: { room: number; items: { key: string; index: number }[] }[] = [];
  for (const item of order) {
    const cost = item.key.length + sep;
    if (cost > capacity) {
      throw new InputError(`"${item.key.slice(0, 40)}" is too long to send: even alone it would exceed the ${spec.limit}-character address limit.`);
    }
    let bin = bins.find((b) => b.room >= cost && b.items.length < maxKeys);
    if (!bin) {
      bin = { room: capacity, items: [] };
      bins.push(bin);
    }
    bin.room -= cost;
    bin.items.push(item);
  }
  // Keep the caller's order inside each batch, so requests read naturally in logs.
  return bins.map((b) => b.items.sort((x, y) => x.index - y.index).map((i) => i.key));
}

/** Splits a batch in two halves (after a 414 from a stricter proxy, or to isolate a bad ID). */
export function halve<T>(items: readonly T[]): [T[], T[]] {
  const mid = Math.ceil(items.length / 2);
  return [items.slice(0, mid), items.slice(mid)];
}
