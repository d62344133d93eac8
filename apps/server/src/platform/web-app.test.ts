import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/helper.ts';

describe('the built web app', () => {
  let t: TestApp;
  let web: string;
  const source = 'const secretBusinessRule = 42;';

  beforeAll(async () => {
    web = mkdtempSync(path.join(tmpdir(), 'keystore-web-'));
    writeFileSync(path.join(web, 'index.html'), '<!doctype html><html><head><!--page-head--></head><body><div id="root"></div></body></html>');
    mkdirSync(path.join(web, 'assets'));
    writeFileSync(path.join(web, 'assets', 'index-1.js'), 'console.log(42);\n');
    writeFileSync(
      path.join(web, 'assets', 'index-1.js.map'),
      JSON.stringify({ version: 3, file: 'index-1.js', sources: ['../src/main.ts'], sourcesContent: [source], names: [], mappings: 'AAAA' }),
    );
    t = await buildTestApp({ env: { WEB_DIST: web } });
  });
  afterAll(async () => {
    await t.close();
    rmSync(web, { recursive: true, force: true });
  });

  it('serves the scripts but never their source maps', async () => {
    const script = await t.app.inject({ url: '/assets/index-1.js' });
    expect(script.statusCode).toBe(200);
    expect(script.body).toContain('console.log(42)');

    for (const url of ['/assets/index-1.js.map', '/assets/index-1.js.map?x=1', '/assets/../assets/index-1.js.map']) {
      const map = await t.app.inject({ url });
      expect(map.statusCode, url).toBe(404);
      expect(map.body, url).not.toContain(source);
    }
  });

  it("sends a hashed script with the headers that protect it, and none of a document's (decision 027)", async () => {
    const script = await t.app.inject({ url: '/assets/index-1.js' });
    expect(script.headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'cross-origin-resource-policy': 'same-origin', 'cache-control': 'public, max-age=31536000, immutable' });
    for (const name of ['content-security-policy', 'x-frame-options', 'referrer-policy', 'etag', 'last-modified']) expect(script.headers[name], name).toBeUndefined();
    const page = await t.app.inject({ url: '/store' });
    expect(page.headers['content-security-policy']).toContain("default-src 'self'");
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
  });
});
