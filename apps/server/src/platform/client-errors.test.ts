import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, memoryLog, type TestApp } from '../test/helper.ts';

describe('reports of pages that failed in the browser', () => {
  let t: TestApp;
  const log = memoryLog('info');
  beforeAll(async () => {
    t = await buildTestApp({ logger: log.logger });
  });
  afterAll(() => t.close());

  const report = (payload: unknown) => t.app.inject({ method: 'POST', url: '/api/client-errors', payload: payload as object });

  it('logs the failure as a warning with its page, and answers nothing', async () => {
    const answer = await report({ message: 'Cannot read properties of undefined', stack: 'at GamePage (game-page.tsx:10)', path: '/game/abc' });
    expect(answer.statusCode).toBe(204);
    expect(log.text()).toContain('"msg":"a page of the web app failed"');
    expect(log.text()).toContain('"path":"/game/abc"');
  });

  it('refuses what is no report, and a flood from one address', async () => {
    expect((await report({ path: '/' })).statusCode).toBe(400);
    expect((await report({ message: 'x'.repeat(1001), path: '/' })).statusCode).toBe(400);
    let last = 0;
    for (let i = 0; i < 31; i += 1) last = (await report({ message: 'boom', path: '/' })).statusCode;
    expect(last).toBe(429);
  });
});
