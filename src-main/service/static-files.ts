import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { RENDERER_HEADERS, contentTypeOf } from './security.ts';

/** The file under `root` a URL path names, or null when it escapes `root` or does not exist. Unknown paths get index.html. */
export async function resolveRendererFile(root: string, urlPath: string): Promise<string | null> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath.split('?')[0]!.split('#')[0]!);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const base = path.resolve(root);
  const target = path.resolve(base, '.' + path.posix.normalize('/' + decoded));
  if (target !== base && !target.startsWith(base + path.sep)) return null;
  const candidate = target === base ? path.join(base, 'index.html') : target;
  try {
    if ((await stat(candidate)).isFile()) return candidate;
  } catch {
    // Not a file: the page's own routes live in the hash, so anything else is not ours.
  }
  return null;
}

export interface StaticResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer | string;
}

/** Serves one renderer file with the CSP and hardening headers. */
export async function serveRendererFile(root: string, urlPath: string): Promise<StaticResponse> {
  const file = await resolveRendererFile(root, urlPath);
  if (!file) return { status: 404, headers: { ...RENDERER_HEADERS, 'Content-Type': 'text/plain; charset=utf-8' }, body: 'Not found' };
  const body = await readFile(file);
  const isHtml = file.endsWith('.html');
  return {
    status: 200,
    headers: {
      ...RENDERER_HEADERS,
      'Content-Type': contentTypeOf(file),
      // Hashed asset names can be cached; the page itself must always be fresh.
      'Cache-Control': isHtml ? 'no-store' : 'public, max-age=31536000, immutable',
    },
    body,
  };
}
