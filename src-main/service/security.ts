// The renderer's Content-Security-Policy and response headers, shared by the Electron protocol and the bridge.

/**
 * Each directive, and why:
 * - default-src 'none': anything not listed below is refused.
 * - script-src 'self': only the built bundle; no inline script, no eval.
 * - style-src 'self': the built stylesheet; Svelte and uPlot set styles through the CSSOM, which CSP allows.
 * - img-src 'self' data:: thumbnails arrive as data: URLs from main, which fetched and cached them, so the page
 *   never contacts a Nadeo host itself (and thumbnails show offline).
 * - font-src 'self': bundled fonts only.
 * - connect-src 'self': browser mode's bridge is the page's own origin; the desktop app talks over IPC.
 * - object-src, frame-src, worker-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none':
 *   nothing to embed, no base to rewrite, no form posts, and nobody may frame us.
 */
export const RENDERER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "frame-src 'none'",
  "worker-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers on every response that serves the renderer. */
export const RENDERER_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': RENDERER_CSP,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Permissions-Policy': 'camera=(), microphone=(), geolocation=(), usb=(), serial=(), hid=(), payment=()',
};

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.txt': 'text/plain; charset=utf-8',
};

export function contentTypeOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return (dot >= 0 && CONTENT_TYPES[fileName.slice(dot).toLowerCase()]) || 'application/octet-stream';
}
