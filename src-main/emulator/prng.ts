// Seeded randomness and hashing: everything the emulator invents must come out the same for the same seed.
import { hash } from 'node:crypto';

/** A seeded generator of floats in [0, 1) (mulberry32): small, fast, good enough for test data. */
export type Rng = () => number;

export function mulberry32(seed: number): Rng {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [min, max], both included. */
export function intBetween(rng: Rng, min: number, max: number): number {
  return min + Math.floor(rng() * (max - min + 1));
}

export function pick<T>(rng: Rng, items: readonly T[]): T {
  const item = items[Math.floor(rng() * items.length)];
  if (item === undefined) throw new Error('pick from an empty list');
  return item;
}

/** FNV-1a, 32 bits: a cheap stable hash for shuffles and fault choices. */
export function fnv1a(text: string, seed = 0x811c9dc5): number {
  let hash = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  // A final avalanche so that similar strings land far apart.
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b) >>> 0;
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35) >>> 0;
  hash ^= hash >>> 16;
  return hash >>> 0;
}

/** A float in [0, 1) determined by the text alone. */
export function unitHash(text: string, seed?: number): number {
  return fnv1a(text, seed) / 4294967296;
}

const HEX_BYTES = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** 32 hex digits -> a v4-shaped UUID (version 4, RFC 4122 variant): the shape real Nadeo IDs have. */
function formatUuid(hex: string): string {
  const variant = ((parseInt(hex.charAt(16), 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** A lowercase v4-shaped UUID drawn from the generator. */
export function uuidFrom(rng: Rng): string {
  let hex = '';
  for (let i = 0; i < 4; i++) {
    const word = (rng() * 4294967296) >>> 0;
    hex += `${HEX_BYTES[word >>> 24]}${HEX_BYTES[(word >>> 16) & 0xff]}${HEX_BYTES[(word >>> 8) & 0xff]}${HEX_BYTES[word & 0xff]}`;
  }
  return formatUuid(hex);
}

/** A lowercase v4-shaped UUID derived from a name: the same name always gives the same ID. */
export function uuidFromName(name: string): string {
  return formatUuid(hash('sha1', name, 'hex'));
}

/** Deterministic pseudo-random bytes from a name (for replay and map files). */
export function bytesFromName(name: string, length: number): Buffer {
  const rng = mulberry32(fnv1a(name));
  const out = Buffer.allocUnsafe(length);
  for (let i = 0; i < length; i += 4) {
    const word = Math.floor(rng() * 4294967296);
    for (let j = 0; j < 4 && i + j < length; j++) out[i + j] = (word >>> (j * 8)) & 0xff;
  }
  return out;
}
