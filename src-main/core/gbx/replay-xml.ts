// The XML a replay carries in its header chunk 0x03093001 (docs/gbx.md, "Replays"): read without an XML
// library, by finding the few elements that matter and their attributes, tolerant of anything around them.

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

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;
}

/** Where the first `<name …>` element's attributes are (`open` is "<name"): from after its name to its '>' (or the end). */
function elementSpan(xml: string, open: string): [number, number] | undefined {
  for (let at = xml.indexOf(open); at >= 0; at = xml.indexOf(open, at + 1)) {
    const from = at + open.length;
    const after = xml.charCodeAt(from);
    if (Number.isNaN(after) || after === 0x3e || after === 0x2f || isSpace(after)) {
      const close = xml.indexOf('>', from);
      return [from, close < 0 ? xml.length : close];
    }
  }
  return undefined;
}

/** An attribute of the element at `span` (`needle` is 'name="'), found with native searches (nothing here can backtrack). */
function attribute(xml: string, span: [number, number] | undefined, needle: string): string | undefined {
  if (span === undefined) return undefined;
  const [from, to] = span;
  for (let at = xml.indexOf(needle, from); at >= 0 && at < to; at = xml.indexOf(needle, at + 1)) {
    if (!isSpace(xml.charCodeAt(at - 1))) continue;
    const start = at + needle.length;
    const end = xml.indexOf('"', start);
    if (end < 0 || end > to) return undefined;
    const value = xml.slice(start, end);
    return value.includes('&') ? unescape(value) : value;
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

/** A whole number the file wrote, -1 (and anything not a number) being none. */
function integer(text: string | undefined): number | null {
  if (text === undefined || text.length === 0 || text.length > 10) return null;
  let value = 0;
  for (let i = 0; i < text.length; i++) {
    const digit = text.charCodeAt(i) - 0x30;
    if (digit < 0 || digit > 9) return null; // "-1", or not a number: none
    value = value * 10 + digit;
  }
  return value;
}

function text(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value;
}

export function parseReplayXml(xml: string): ReplayXml {
  const map = elementSpan(xml, '<map');
  const desc = elementSpan(xml, '<desc');
  const times = elementSpan(xml, '<times');
  const checkpoints = elementSpan(xml, '<checkpoints');
  return {
    mapUid: text(attribute(xml, map, 'uid="')),
    mapName: text(attribute(xml, map, 'name="')),
    mapType: text(attribute(xml, desc, 'maptype="')),
    best: integer(attribute(xml, times, 'best="')),
    respawns: integer(attribute(xml, times, 'respawns="')),
    stuntScore: integer(attribute(xml, times, 'stuntscore="')),
    checkpoints: integer(attribute(xml, checkpoints, 'cur="')),
  };
}
