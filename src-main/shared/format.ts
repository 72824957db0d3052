// Trackmania's display conventions, as pure functions with no imports: shared by the command line, the CSV
// export and the renderer (the one value module the renderer takes from src-main; it touches nothing).

const NO_TIME = '-:--.---';

function clock(ms: number): string {
  const millis = ms % 1000;
  const totalSeconds = Math.floor(ms / 1000);
  const seconds = totalSeconds % 60;
  const totalMinutes = Math.floor(totalSeconds / 60);
  const ss = String(seconds).padStart(2, '0');
  const mmm = String(millis).padStart(3, '0');
  if (totalMinutes < 60) return `${totalMinutes}:${ss}.${mmm}`;
  const mm = String(totalMinutes % 60).padStart(2, '0');
  return `${Math.floor(totalMinutes / 60)}:${mm}:${ss}.${mmm}`;
}

/** 61234 → `1:01.234`; over an hour `h:mm:ss.mmm`; no time (null, negative, not finite) → `-:--.---`. */
export function formatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms < 0) return NO_TIME;
  return clock(Math.round(ms));
}

/** A signed difference of times: `-0:00.333` (faster), `+0:01.020` (slower), `+0:00.000` (equal); '' when unknown. */
export function formatDelta(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '';
  const rounded = Math.round(ms);
  return `${rounded < 0 ? '-' : '+'}${clock(Math.abs(rounded))}`;
}

/** Stunt points with digit grouping: 12345 → `12,345`. */
export function formatScore(points: number | null | undefined): string {
  if (points === null || points === undefined || !Number.isFinite(points)) return '-';
  return Math.round(points).toLocaleString('en-US');
}

/** A leaderboard position with digit grouping: 1234 → `#1,234`; none → `#-`. */
export function formatPosition(position: number | null | undefined): string {
  if (position === null || position === undefined || !Number.isFinite(position) || position < 1) return '#-';
  return `#${Math.round(position).toLocaleString('en-US')}`;
}

/**
 * How far a position moved, in places: `▲247` (climbed from 1,234 to 987), `▼12` (dropped), `=` (same); '' when
 * there is nothing to compare with.
 */
export function formatPositionChange(before: number | null | undefined, after: number | null | undefined): string {
  if (before === null || before === undefined || after === null || after === undefined || !Number.isFinite(before) || !Number.isFinite(after)) return '';
  const places = Math.round(before) - Math.round(after);
  if (places === 0) return '=';
  return `${places > 0 ? '▲' : '▼'}${Math.abs(places).toLocaleString('en-US')}`;
}

export const MEDALS = ['none', 'bronze', 'silver', 'gold', 'author'] as const;
export type MedalName = (typeof MEDALS)[number];

/** Community convention: 0 none, 1 bronze, 2 silver, 3 gold, 4 author. Anything else reads as none. */
export function medalName(medal: number | null | undefined): MedalName {
  return (medal !== null && medal !== undefined && MEDALS[medal]) || 'none';
}

/** A run of a name's text with the styles its formatting codes give it. */
export interface FormattedSegment {
  text: string;
  bold: boolean;
  italic: boolean;
  wide: boolean;
  narrow: boolean;
  upper: boolean;
  shadow: boolean;
  /** `#rrggbb`, or null for the default colour. */
  color: string | null;
  /** The target of a `$l`/`$h`/`$p` link, when one was given in brackets (untrusted text, never navigated to by us). */
  link: string | null;
}

type Style = Omit<FormattedSegment, 'text'>;

const PLAIN: Style = { bold: false, italic: false, wide: false, narrow: false, upper: false, shadow: false, color: null, link: null };
const HEX = /^[0-9a-fA-F]$/;

function sameStyle(a: Style, b: Style): boolean {
  return (
    a.bold === b.bold && a.italic === b.italic && a.wide === b.wide && a.narrow === b.narrow &&
    a.upper === b.upper && a.shadow === b.shadow && a.color === b.color && a.link === b.link
  );
}

/**
 * Parses Trackmania formatting codes into styled text runs. Tolerant of what real names hold: a colour of one or
 * two hex digits is padded, a lone or unknown `$x` is dropped, an unclosed link or scope ends with the name.
 * The result is text and styles only; callers render it as text nodes, never as HTML.
 */
export function parseFormatting(name: string): FormattedSegment[] {
  const segments: FormattedSegment[] = [];
  const scopes: Style[] = [];
  let style: Style = { ...PLAIN };
  let text = '';
  let inLink = false;

  const flush = (): void => {
    if (text === '') return;
    const last = segments.at(-1);
    if (last && sameStyle(last, style)) last.text += text;
    else segments.push({ text, ...style });
    text = '';
  };
  const restyle = (next: Style): void => {
    if (sameStyle(next, style)) return;
    flush();
    style = next;
  };

  let i = 0;
  while (i < name.length) {
    const ch = name[i]!;
    if (ch !== '$') {
      text += ch;
      i += 1;
      continue;
    }
    const code = name[i + 1];
    if (code === undefined) break; // a lone `$` at the end
    if (code === '$') {
      text += '$';
      i += 2;
      continue;
    }
    if (HEX.test(code)) {
      let digits = code;
      let j = i + 2;
      while (digits.length < 3 && j < name.length && HEX.test(name[j]!)) digits += name[j++];
      const rgb = digits.padEnd(3, '0').toLowerCase();
      restyle({ ...style, color: `#${rgb[0]}${rgb[0]}${rgb[1]}${rgb[1]}${rgb[2]}${rgb[2]}` });
      i = j;
      continue;
    }
    i += 2;
    switch (code.toLowerCase()) {
      case 'o': restyle({ ...style, bold: true }); break;
      case 'i': restyle({ ...style, italic: true }); break;
      case 'w': restyle({ ...style, wide: true, narrow: false }); break;
      case 'n': restyle({ ...style, narrow: true, wide: false }); break;
      case 'm': restyle({ ...style, wide: false, narrow: false }); break;
      case 't': restyle({ ...style, upper: true }); break;
      case 's': restyle({ ...style, shadow: true }); break;
      case 'g': restyle({ ...style, color: null }); break;
      case 'z': restyle({ ...PLAIN, link: style.link }); break;
      case '<': scopes.push(style); break;
      case '>': restyle(scopes.pop() ?? { ...PLAIN }); break;
      case 'l':
      case 'h':
      case 'p': {
        if (inLink) {
          inLink = false;
          restyle({ ...style, link: null });
          break;
        }
        inLink = true;
        let target: string | null = null;
        if (name[i] === '[') {
          const close = name.indexOf(']', i);
          if (close !== -1) {
            target = name.slice(i + 1, close);
            i = close + 1;
          }
        }
        restyle({ ...style, link: target });
        break;
      }
      default: break; // unknown code: dropped, as the game does
    }
  }
  flush();
  return segments;
}

/** The name as plain text: formatting codes removed, `$$` kept as `$`. */
export function stripFormatting(name: string): string {
  return parseFormatting(name).map((s) => s.text).join('');
}
