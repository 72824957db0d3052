/**
 * Name colours are chosen for the game's dark UI; keep them readable on ours: a colour too close to the background in
 * brightness (black on dark, lime or yellow on white) is darkened or lightened, hue and saturation kept, until it has
 * the contrast text needs (WCAG's 4.5:1) against the lightest (dark theme) or darkest (light theme) background a
 * name sits on: a row under the pointer.
 */
const BACKGROUNDS = { dark: [0x20, 0x25, 0x32], light: [0xee, 0xf0, 0xf5] } as const;
export const MIN_CONTRAST = 4.5;

export function readableColor(hex: string | null, theme: 'dark' | 'light'): string | null {
  if (!hex) return null;
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return null;
  const [h, saturation, l] = toHsl([m[1]!, m[2]!, m[3]!].map((x) => parseInt(x, 16) / 255) as [number, number, number]);
  // The colour as it will be written (whole percents), so its contrast is the one measured.
  const s = Math.round(saturation * 100) / 100;
  const background = luminance(BACKGROUNDS[theme].map((c) => c / 255) as [number, number, number]);
  const step = theme === 'dark' ? 1 : -1;
  let percent = Math.round(l * 100);
  const reads = (p: number) => contrast(luminance(fromHsl(h, s, p / 100)), background) >= MIN_CONTRAST;
  while (!reads(percent) && percent + step >= 0 && percent + step <= 100) percent += step;
  return `hsl(${h} ${Math.round(s * 100)}% ${percent}%)`;
}

/** WCAG's contrast ratio between two relative luminances. */
export function contrast(a: number, b: number): number {
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}

/** WCAG's relative luminance of an sRGB colour (channels 0 to 1). */
export function luminance(rgb: readonly [number, number, number]): number {
  const [r, g, b] = rgb.map((c) => (c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

function toHsl([r, g, b]: [number, number, number]): [number, number, number] {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const l = (max + min) / 2;
  const d = max - min;
  const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  let h = 0;
  if (d !== 0) {
    if (max === r) h = ((g - b) / d) % 6;
    else if (max === g) h = (b - r) / d + 2;
    else h = (r - g) / d + 4;
  }
  return [Math.round(h * 60 + 360) % 360, s, l];
}

/** The colour `hsl(h s l)` (s and l from 0 to 1) as sRGB channels from 0 to 1, as CSS computes it. */
export function fromHsl(h: number, s: number, l: number): [number, number, number] {
  const a = s * Math.min(l, 1 - l);
  const f = (n: number) => {
    const k = (n + h / 30) % 12;
    return l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0), f(8), f(4)];
}
