/** Name colours are chosen for the game's dark UI; keep them readable on ours by bounding their lightness. */
export function readableColor(hex: string | null, theme: 'dark' | 'light'): string | null {
  if (!hex) return null;
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return null;
  const [r, g, b] = [m[1]!, m[2]!, m[3]!].map((h) => parseInt(h, 16) / 255) as [number, number, number];
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  let h = 0;
  const l = (max + min) / 2;
  const d = max - min;
  const s = d === 0 ? 0 : d / (1 - Math.abs(2 * l - 1));
  if (d !== 0) {
    if (max === r) h = ((g - b) / d) % 6;
    else if (max === g) h = (b - r) / d + 2;
    else h = (r - g) / d + 4;
  }
  h = Math.round(h * 60 + 360) % 360;
  const [low, high] = theme === 'dark' ? [0.55, 0.92] : [0.18, 0.45];
  const bounded = Math.min(high, Math.max(low, l));
  return `hsl(${h} ${Math.round(s * 100)}% ${Math.round(bounded * 100)}%)`;
}
