import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerMemoryRelease } from './memory.ts';

const QUIET_MS = 50;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('giving memory back once the store goes quiet', () => {
  const apps: Array<ReturnType<typeof Fastify>> = [];
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
  });

  const server = async () => {
    let collections = 0;
    const app = Fastify();
    apps.push(app);
    registerMemoryRelease(app, () => void (collections += 1), QUIET_MS);
    app.get('/', async () => 'ok');
    await app.ready();
    return { app, collections: () => collections };
  };
  const answer = async (app: ReturnType<typeof Fastify>, times: number) => {
    for (let n = 0; n < times; n += 1) await app.inject('/');
  };

  it('collects once after a busy spell and a quiet one, and not again while nothing happens', async () => {
    const { app, collections } = await server();
    await answer(app, 1000);
    await pause(QUIET_MS * 5);
    expect(collections()).toBe(1);
    await pause(QUIET_MS * 3);
    expect(collections()).toBe(1);
  });

  it('never collects for a few answers, nor while answers keep coming', async () => {
    const { app, collections } = await server();
    await answer(app, 10);
    await pause(QUIET_MS * 5);
    expect(collections()).toBe(0);
    const until = performance.now() + QUIET_MS * 4;
    while (performance.now() < until) await answer(app, 300);
    expect(collections()).toBe(0);
  });
});
