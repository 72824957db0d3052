// The app:// scheme that serves the built renderer: a real origin for 'self' in the CSP, unlike file://.
import type { Protocol } from 'electron';
import { serveRendererFile } from '../service/static-files.ts';
import { APP_HOST, APP_SCHEME } from './window.ts';

/** Must run before the app is ready. */
export function registerAppScheme(protocol: Protocol): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false, stream: false, codeCache: true } },
  ]);
}

export async function rendererResponse(rendererDir: string, requestUrl: string): Promise<Response> {
  const url = new URL(requestUrl);
  if (url.host !== APP_HOST) return new Response('Not found', { status: 404 });
  const file = await serveRendererFile(rendererDir, url.pathname);
  return new Response(typeof file.body === 'string' ? file.body : new Uint8Array(file.body), { status: file.status, headers: file.headers });
}

export function serveApp(protocol: Protocol, rendererDir: string): void {
  protocol.handle(APP_SCHEME, (request) => rendererResponse(rendererDir, request.url));
}
