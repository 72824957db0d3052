import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';

vi.mock('electron', () => ({ BrowserWindow: class {}, shell: {} }));
const { rendererResponse } = await import('../../../src-main/app/protocol.ts');
const { RENDERER_CSP } = await import('../../../src-main/service/security.ts');

const root = mkdtempSync(path.join(tmpdir(), 'tw-renderer-'));
mkdirSync(path.join(root, 'renderer', 'assets'), { recursive: true });
writeFileSync(path.join(root, 'renderer', 'index.html'), '<!doctype html><title>t</title>');
writeFileSync(path.join(root, 'renderer', 'assets', 'app.js'), 'export {}');
writeFileSync(path.join(root, 'secret.txt'), 'do not serve');
const dir = path.join(root, 'renderer');
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the app:// scheme', () => {
  it('serves the page with the CSP and hardening headers', async () => {
    const response = await rendererResponse(dir, 'app://trackwatch/index.html');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-security-policy')).toBe(RENDERER_CSP);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await (await rendererResponse(dir, 'app://trackwatch/assets/app.js')).text()).toBe('export {}');
  });

  it('never serves outside the renderer folder nor for another host', async () => {
    for (const url of ['app://trackwatch/../secret.txt', 'app://trackwatch/%2e%2e/secret.txt', 'app://trackwatch/assets/..%2f..%2fsecret.txt', 'app://other/index.html']) {
      const response = await rendererResponse(dir, url);
      expect(response.status, url).toBe(404);
      expect(await response.text()).not.toContain('do not serve');
    }
  });
});
