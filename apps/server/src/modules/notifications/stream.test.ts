// The live stream over real HTTP: an admin's notification reaches every stream, a personal one only
// its owner's; on PostgreSQL, a notification created on one instance reaches a stream on another.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Notification } from '@keystore/contract';
import { openDatabase, type Database } from '../../db/client.ts';
import { buildTestApp, type TestApp } from '../../test/helper.ts';
import { ordersTestApp, type OrdersTestApp } from '../orders/test-kit.ts';
import { openEventStream, type EventStream } from './test-kit.ts';

describe('the notification stream', () => {
  let t: OrdersTestApp;
  let base: string;
  const streams: EventStream[] = [];
  const open = async (path: string, headers: Record<string, string> = {}) => {
    const stream = await openEventStream(`${base}${path}`, headers);
    streams.push(stream);
    return stream;
  };
  beforeAll(async () => {
    t = await ordersTestApp({ sync: false });
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
  }, 120_000);
  afterAll(async () => {
    for (const stream of streams) stream.close();
    await t?.close();
  });

  it('refuses a caller with neither a token nor a session id, and a bad ticket', async () => {
    expect((await open('/api/notifications/stream')).status).toBe(401);
    expect((await open('/api/notifications/stream?ticket=not-a-ticket')).status).toBe(401);
  });

  it('pushes an admin notification to visitors and users, uncompressed, with a ticket or session id in the query', async () => {
    const [admin, buyer] = [await t.buyer('admin'), await t.buyer()];
    const visitor = await open('/api/notifications/stream?sessionId=visitor-1');
    const byHeader = await open('/api/notifications/stream', { 'x-session-id': 'visitor-2' });
    const { ticket } = (await t.app.inject({ method: 'POST', url: '/api/notifications/stream-ticket', headers: buyer.headers })).json<{ ticket: string }>();
    const user = await open(`/api/notifications/stream?ticket=${ticket}`);
    expect(visitor.status).toBe(200);
    expect(visitor.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(visitor.headers.get('content-encoding')).toBeNull();
    const created = await t.app.inject({ method: 'POST', url: '/api/admin/notifications', headers: admin.headers, payload: { title: 'Live', text: 'now' } });
    const sent = created.json<Notification>();
    for (const stream of [visitor, byHeader, user]) expect(await stream.next()).toEqual(sent);
  });

  it('pushes a personal notification only to its owner', async () => {
    const [owner, other] = [await t.buyer(), await t.buyer()];
    const ownerStream = await open('/api/notifications/stream', owner.headers);
    const otherStream = await open('/api/notifications/stream', other.headers);
    const visitor = await open('/api/notifications/stream?sessionId=visitor-3');
    const personal = await t.app.notifications.publish({ title: 'Yours', text: 'only', kind: 'admin', userId: owner.userId });
    const announced = await t.app.notifications.publish({ title: 'Everyone', text: 'all', kind: 'admin' });
    expect(await ownerStream.next()).toMatchObject({ _id: personal._id, isPublic: false });
    expect(await ownerStream.next()).toMatchObject({ _id: announced._id });
    // The public one came after the personal one, so a stream that got the public one first never got the personal one.
    expect(await otherStream.next()).toMatchObject({ _id: announced._id });
    expect(await visitor.next()).toMatchObject({ _id: announced._id });
  });

  it('ends a stream whose session was ended instead of sending it a personal notification', async () => {
    const owner = await t.buyer();
    const stream = await open('/api/notifications/stream', owner.headers);
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: owner.headers })).statusCode).toBeLessThan(300);
    await t.app.notifications.publish({ title: 'After logout', text: 'must not arrive', kind: 'admin', userId: owner.userId });
    await expect(stream.next(1000)).rejects.toThrow('no notification arrived');
    expect(stream.ended).toBe(true);
  });

  it('closes the stream of a device signed out from the list at once, without waiting for a notification (issue 30)', async () => {
    const owner = await t.buyer();
    const stream = await open('/api/notifications/stream', owner.headers);
    const here = await t.app.auth.sessions.open(owner.userId, { ip: '127.0.0.1', userAgent: 'other device' });
    const devices = (await t.app.inject({ url: '/api/auth/sessions', headers: { authorization: `Bearer ${here}` } })).json<Array<{ _id: string; current: boolean }>>();
    const streamed = devices.find((device) => !device.current)!;
    const out = await t.app.inject({ method: 'DELETE', url: `/api/auth/sessions/${streamed._id}`, headers: { authorization: `Bearer ${here}` } });
    expect(out.statusCode).toBe(204);
    for (let i = 0; i < 100 && !stream.ended; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(stream.ended).toBe(true);
  });

  it('forgets a stream whose client went away', async () => {
    const stream = await open('/api/notifications/stream?sessionId=leaving');
    const before = t.app.notifications.streams.size;
    stream.close();
    for (let i = 0; i < 50 && t.app.notifications.streams.size >= before; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(t.app.notifications.streams.size).toBe(before - 1);
  });
});

const serverUrl = process.env.DATABASE_URL;

describe.skipIf(!serverUrl?.startsWith('postgres'))('the stream across instances (PostgreSQL)', () => {
  const name = `keystore_notify_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const databases: Database[] = [];
  let first: OrdersTestApp;
  let second: TestApp;
  let stream: EventStream | undefined;
  let listening: Promise<string> | undefined;
  /** The second instance's address, listening from the first test that asks. */
  const secondBase = () => (listening ??= second.app.listen({ port: 0, host: '127.0.0.1' }));

  async function admin(query: string): Promise<void> {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    await client.query(query);
    await client.end();
  }

  beforeAll(async () => {
    await admin(`CREATE DATABASE "${name}"`);
    const url = new URL(serverUrl!);
    url.pathname = `/${name}`;
    for (let i = 0; i < 2; i += 1) databases.push(await openDatabase({ url: url.toString() }));
    first = await ordersTestApp({ sync: false, database: databases[0]! });
    second = await buildTestApp({ database: databases[1]! });
  }, 120_000);
  afterAll(async () => {
    stream?.close();
    await first?.close();
    await second?.close();
    for (const database of databases) await database.close();
    await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  });

  it('closes a stream on one instance when its session is revoked on the other (issue 30)', async () => {
    const buyer = await first.buyer();
    const base = await secondBase();
    const streamed = await openEventStream(`${base}/api/notifications/stream`, buyer.headers);
    expect(streamed.status).toBe(200);
    const here = await first.app.auth.sessions.open(buyer.userId, { ip: '127.0.0.1', userAgent: 'other device' });
    const revoked = await first.app.inject({ method: 'POST', url: '/api/auth/sessions/revoke-others', headers: { authorization: `Bearer ${here}` }, payload: {} });
    expect(revoked.statusCode).toBe(200);
    for (let i = 0; i < 150 && !streamed.ended; i += 1) await new Promise((resolve) => setTimeout(resolve, 20));
    expect(streamed.ended).toBe(true);
    // And its token is refused on both instances.
    expect((await second.app.inject({ url: '/api/auth/sessions', headers: buyer.headers })).statusCode).toBe(401);
    expect((await first.app.inject({ url: '/api/auth/sessions', headers: buyer.headers })).statusCode).toBe(401);
    streamed.close();
  });

  it('delivers a notification created on one instance to a stream on the other', async () => {
    const [adminUser, buyer] = [await first.buyer('admin'), await first.buyer()];
    const base = await secondBase();
    stream = await openEventStream(`${base}/api/notifications/stream`, buyer.headers);
    expect(stream.status).toBe(200);
    const created = await first.app.inject({ method: 'POST', url: '/api/admin/notifications', headers: adminUser.headers, payload: { title: 'Everywhere', text: 'both' } });
    expect(await stream.next()).toEqual(created.json());
    const personal = await first.app.notifications.publish({ title: 'Yours', text: 'on any instance', kind: 'admin', userId: buyer.userId });
    expect(await stream.next()).toEqual(personal);
  });
});
