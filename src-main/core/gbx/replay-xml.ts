// The XML a replay carries in its header chunk 0x03093001 (docs/gbx.md, "Replays"): read without an XML
// library, by finding the few elements that matter and their attributes in its bytes, tolerant of anything around
// them. Only the values kept are decoded: the delimiters are ASCII, which UTF-8 never uses inside a character.

export interface ReplayXml {
  mapUid: string | null;
  mapName: string | null;
  mapType: string | null;
  /** `<times best>`: the best time in the replay, ms; null when the file says -1 or nothing. */
  best: number | null;
  respawns: number | null;
  stuntScore: number | null;
  /** `<checkpoints cur>`: how many checkpoints the best run crossed. */
  checkpoints: number | null;
}

// A value is decoded alone: a BOM at its start is part of it, as it was of the whole text.
const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });
const ascii = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0));
const [LT, GT, SLASH, QUOTE, AMP] = [0x3c, 0x3e, 0x2f, 0x22, 0x26];

function isSpace(code: number | undefined): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;
}

/** Where `needle` first occurs in `xml` from `from` (before `end`), or -1: a plain loop beats a native call per byte found. */
function find(xml: Uint8Array, needle: Uint8Array, from: number, end: number): number {
  const first = needle[0]!;
  const last = end - needle.length;
  for (let at = from; at <= last; at++) {
    if (xml[at] !== first) continue;
    let i = 1;
    while (i < needle.length && xml[at + i] === needle[i]) i++;
    if (i === needle.length) return at;
  }
  return -1;
}

/** Where byte `code` first occurs in `xml` from `from` (before `end`), or -1. */
function findByte(xml: Uint8Array, code: number, from: number, end: number): number {
  for (let at = from; at < end; at++) if (xml[at] === code) return at;
  return -1;
}

/** An element's attributes: from after its name up to its '>' (or the end). */
class Element {
  readonly from: number;
  readonly to: number;
  constructor(from: number, to: number) {
    this.from = from;
    this.to = to;
  }
}

/** Whether `name` is in `xml` at `at`, followed by what may end an element's name. */
function nameAt(xml: Uint8Array, name: Uint8Array, at: number): boolean {
  const from = at + name.length;
  if (from > xml.length) return false;
  for (let i = 1; i < name.length; i++) if (xml[at + i] !== name[i]) return false;
  const after = xml[from];
  return after === undefined || after === GT || after === SLASH || isSpace(after);
}

/**
 * The first `<name …>` element of each of `names`, found in one plain pass over the bytes (a typed array's native
 * indexOf costs a call into the runtime each time, more than the few hundred bytes it would skip).
 */
function elements(xml: Uint8Array, names: readonly Uint8Array[]): (Element | undefined)[] {
  const found: (Element | undefined)[] = names.map(() => undefined);
  let left = names.length;
  for (let at = 0; at < xml.length && left > 0; at++) {
    if (xml[at] !== LT) continue;
    for (let k = 0; k < names.length; k++) {
      const name = names[k]!;
      if (found[k] !== undefined || !nameAt(xml, name, at)) continue;
      const from = at + name.length;
      const close = findByte(xml, GT, from, xml.length);
      found[k] = new Element(from, close < 0 ? xml.length : close);
      left--;
      break;
    }
  }
  return found;
}

function decode(xml: Uint8Array, start: number, end: number): string {
  // Short ASCII values (UIDs, numbers) are built directly, without the decoder's per-call cost.
  if (end - start <= 64) {
    let text = '';
    for (let i = start; i < end; i++) {
      const code = xml[i]!;
      if (code >= 0x80) return utf8.decode(xml.subarray(start, end));
      text += String.fromCharCode(code);
    }
    return text;
  }
  return utf8.decode(xml.subarray(start, end));
}

/** An attribute's value, as its bytes' range [start, end), of the element `at`; undefined when it has none. */
function attribute(xml: Uint8Array, end: number, at: Element | undefined, needle: Uint8Array): [number, number] | undefined {
  if (at === undefined) return undefined;
  for (let found = find(xml, needle, at.from, end); found >= 0 && found < at.to; found = find(xml, needle, found + 1, end)) {
    if (!isSpace(xml[found - 1])) continue;
    const start = found + needle.length;
    const close = findByte(xml, QUOTE, start, end);
    if (close < 0 || close > at.to) return undefined;
    return [start, close];
  }
  return undefined;
}

function unescape(text: string): string {
  return text.replace(/&(lt|gt|quot|apos|amp|#\d{1,7}|#x[0-9a-fA-F]{1,6});/g, (_, entity: string) => {
    if (entity === 'lt') return '<';
    if (entity === 'gt') return '>';
    if (entity === 'quot') return '"';
    if (entity === 'apos') return "'";
    if (entity === 'amp') return '&';
    const code = entity.startsWith('#x') ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
    return code <= 0x10ffff ? String.fromCodePoint(code) : '';
  });
}

function value(xml: Uint8Array, span: [number, number] | undefined): string | undefined {
  if (span === undefined) return undefined;
  const text = decode(xml, span[0], span[1]);
  return findByte(xml, AMP, span[0], span[1]) >= 0 ? unescape(text) : text;
}

/** A whole number the file wrote, -1 (and anything not a number) being none. */
function integerOf(text: string | undefined): number | null {
  if (text === undefined || text.length === 0 || text.length > 10) return null;
  let result = 0;
  for (let i = 0; i < text.length; i++) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return null; // "-1", or not a number: none
    result = result * 10 + digit;
  }
  return result;
}

/** As integerOf, read from the bytes unless the value holds an entity. */
function integer(xml: Uint8Array, span: [number, number] | undefined): number | null {
  if (span === undefined) return null;
  const [start, end] = span;
  if (end === start || end - start > 10) return integerOf(value(xml, span));
  let result = 0;
  for (let i = start; i < end; i++) {
    const digit = xml[i]! - 0x30;
    if (digit < 0 || digit > 9) return xml[i] === AMP ? integerOf(value(xml, span)) : null;
    result = result * 10 + digit;
  }
  return result;
}

function text(found: string | undefined): string | null {
  return found === undefined || found === '' ? null : found;
}

const NAMES = {
  map: ascii('<map'),
  desc: ascii('<desc'),
  times: ascii('<times'),
  checkpoints: ascii('<checkpoints'),
  uid: ascii('uid="'),
  name: ascii('name="'),
  maptype: ascii('maptype="'),
  best: ascii('best="'),
  respawns: ascii('respawns="'),
  stuntscore: ascii('stuntscore="'),
  cur: ascii('cur="'),
};

const ELEMENTS = [NAMES.map, NAMES.desc, NAMES.times, NAMES.checkpoints];

/** The XML's bytes (UTF-8). */
export function parseReplayXml(xml: Uint8Array): ReplayXml {
  const end = xml.length;
  const [map, desc, times, checkpoints] = elements(xml, ELEMENTS);
  return {
    mapUid: text(value(xml, attribute(xml, end, map, NAMES.uid))),
    mapName: text(value(xml, attribute(xml, end, map, NAMES.name))),
    mapType: text(value(xml, attribute(xml, end, desc, NAMES.maptype))),
    best: integer(xml, attribute(xml, end, times, NAMES.best)),
    respawns: integer(xml, attribute(xml, end, times, NAMES.respawns)),
    stuntScore: integer(xml, attribute(xml, end, times, NAMES.stuntscore)),
    checkpoints: integer(xml, attribute(xml, end, checkpoints, NAMES.cur)),
  };
}
