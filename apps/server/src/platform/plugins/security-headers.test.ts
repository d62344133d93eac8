import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/helper.ts';

describe('Strict-Transport-Security', () => {
  let direct: TestApp;
  let proxied: TestApp;
  beforeAll(async () => {
    direct = await buildTestApp();
    proxied = await buildTestApp({ env: { TRUST_PROXY: '1' } });
  }, 120_000);
  afterAll(async () => {
    await direct?.close();
    await proxied?.close();
  });

  it('is not sent over plain HTTP', async () => {
    const response = await direct.app.inject({ method: 'GET', url: '/api/health' });
    expect(response.headers['strict-transport-security']).toBeUndefined();
    expect(response.headers['x-content-type-options']).toBe('nosniff');
  });

  it('is not sent on a client’s word when no proxy is trusted', async () => {
    const response = await direct.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });

  it('is sent behind a trusted proxy that terminated TLS, and not when it forwarded plain HTTP', async () => {
    const tls = await proxied.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'https' } });
    expect(tls.headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
    const plain = await proxied.app.inject({ method: 'GET', url: '/api/health', headers: { 'x-forwarded-proto': 'http' } });
    expect(plain.headers['strict-transport-security']).toBeUndefined();
  });
});
