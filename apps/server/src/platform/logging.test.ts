import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, memoryLog, type TestApp } from '../test/helper.ts';
import { urlWithoutSecrets } from './logging.ts';

describe('request URLs in the log (LOG_LEVEL=debug logs every request)', () => {
  let t: TestApp;
  const log = memoryLog('debug');
  beforeAll(async () => {
    t = await buildTestApp({ env: { NODE_ENV: 'production', LOG_LEVEL: 'debug' }, logger: log.logger });
  });
  afterAll(() => t.close());

  it('holds no token, code or session id sent in a query string', async () => {
    await t.app.inject({ url: '/api/notifications/stream?ticket=SECRET-TOKEN-1' });
    await t.app.inject({ url: '/reset-password?email=a%40gmail.com&token=SECRET-TOKEN-2' });
    await t.app.inject({ url: '/confirm-email?email=a%40gmail.com&code=SECRET-CODE-3' });
    await t.app.inject({ url: '/api/games?search=witcher&sessionId=SECRET-SESSION-4' });

    expect(log.text()).toContain('"url":"/api/notifications/stream?ticket=[redacted]"');
    expect(log.text()).toContain('"url":"/api/games?search=witcher&sessionId=[redacted]"');
    expect(log.text()).not.toMatch(/SECRET-/);
  });
});

describe('urlWithoutSecrets', () => {
  it('redacts secret-looking query values and keeps the rest as sent', () => {
    expect(urlWithoutSecrets('/api/games?page=2&platform=pc')).toBe('/api/games?page=2&platform=pc');
    expect(urlWithoutSecrets('/x?Token=a&code=1&a%5Fkey=k&flag&q=b%20c')).toBe('/x?Token=[redacted]&code=[redacted]&a%5Fkey=[redacted]&flag&q=b%20c');
    expect(urlWithoutSecrets('/plain')).toBe('/plain');
  });
});
