// The XML a replay carries in its header chunk 0x03093001 (docs/gbx.md, "Replay XML header"): read without an XML
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

/** The attributes of the first `<name …>` element, read in one pass (no regular expression that could backtrack). */
function element(xml: string, name: string): Map<string, string> | undefined {
  let start = -1;
  for (let at = xml.indexOf(`<${name}`); at >= 0; at = xml.indexOf(`<${name}`, at + 1)) {
    const after = xml.charAt(at + name.length + 1);
    if (after === '' || after === '>' || after === '/' || /\s/.test(after)) {
      start = at + name.length + 1;
      break;
    }
  }
  if (start < 0) return undefined;
  const attributes = new Map<string, string>();
  let i = start;
  while (i < xml.length) {
    while (i < xml.length && /\s/.test(xml.charAt(i))) i++;
    const c = xml.charAt(i);
    if (c === '' || c === '>' || c === '/' || c === '<') break;
    const nameStart = i;
    while (i < xml.length && !/[\s=>/<]/.test(xml.charAt(i))) i++;
    const key = xml.slice(nameStart, i);
    while (i < xml.length && /\s/.test(xml.charAt(i))) i++;
    if (xml.charAt(i) !== '=') continue;
    i++;
    while (i < xml.length && /\s/.test(xml.charAt(i))) i++;
    if (xml.charAt(i) !== '"') continue;
    const close = xml.indexOf('"', i + 1);
    if (close < 0) break;
    if (key !== '' && !attributes.has(key)) attributes.set(key, unescape(xml.slice(i + 1, close)));
    i = close + 1;
  }
  return attributes;
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
  if (text === undefined || !/^-?\d{1,10}$/.test(text.trim())) return null;
  const value = Number(text.trim());
  return value < 0 ? null : value;
}

function text(value: string | undefined): string | null {
  return value === undefined || value === '' ? null : value;
}

export function parseReplayXml(xml: string): ReplayXml {
  const map = element(xml, 'map');
  const desc = element(xml, 'desc');
  const times = element(xml, 'times');
  const checkpoints = element(xml, 'checkpoints');
  return {
    mapUid: text(map?.get('uid')),
    mapName: text(map?.get('name')),
    mapType: text(desc?.get('maptype')),
    best: integer(times?.get('best')),
    respawns: integer(times?.get('respawns')),
    stuntScore: integer(times?.get('stuntscore')),
    checkpoints: integer(checkpoints?.get('cur')),
  };
}
