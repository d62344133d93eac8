// Accounts' security over two instances on one PostgreSQL (issue 30): a device signed out on one
// instance is refused on both and its live stream on the other closes at once; a sign-in's second
// step begun on one instance is finished on the other, and an authenticator code taken there opens
// nothing again anywhere.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateTOTP } from '@epic-web/totp';
import { securityMessages, type LoginAnswer, type Session, type SignedInDevice, type TotpSetup } from '@keystore/contract';
import { openEventStream } from '../modules/notifications/test-kit.ts';
import { customerOver, eventually, scratchDatabase, SHARED_POSTGRES, startInstance, type Instance } from '../test/cluster-kit.ts';

const json = { 'content-type': 'application/json' };

describe.skipIf(!SHARED_POSTGRES)("accounts' security over two instances on one PostgreSQL", () => {
  let scratch: Awaited<ReturnType<typeof scratchDatabase>>;
  let a: Instance;
  let b: Instance;

  beforeAll(async () => {
    scratch = await scratchDatabase(SHARED_POSTGRES!, 'security');
    a = await startInstance({ databaseUrl: scratch.url, env: { RATE_LIMIT_SCALE: '100' } });
    b = await startInstance({ databaseUrl: scratch.url, env: { RATE_LIMIT_SCALE: '100' } });
  }, 120_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await scratch?.drop();
  });

  const call = async <T>(base: string, method: string, pathname: string, token?: string, body?: unknown) => {
    const answer = await fetch(`${base}${pathname}`, {
      method,
      headers: { ...(body === undefined ? {} : json), ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: answer.status, body: (await answer.json().catch(() => undefined)) as T };
  };

  it('signs a device out on one instance: refused on both, its stream on the other closed at once', async () => {
    const customer = await customerOver(a.base);
    const other = (await call<Session>(b.base, 'POST', '/api/auth/login', undefined, { email: customer.email, password: 'Secret123' })).body.token;
    const stream = await openEventStream(`${b.base}/api/notifications/stream`, { authorization: `Bearer ${other}` });
    expect(stream.status).toBe(200);

    const devices = (await call<SignedInDevice[]>(a.base, 'GET', '/api/auth/sessions', customer.token)).body;
    expect(devices).toHaveLength(2);
    const target = devices.find((device) => !device.current)!;
    expect((await call(a.base, 'DELETE', `/api/auth/sessions/${target._id}`, customer.token)).status).toBe(204);

    await eventually(async () => stream.ended, 5000, 20);
    expect(stream.ended).toBe(true);
    for (const base of [a.base, b.base]) expect((await call(base, 'GET', '/api/auth/sessions', other)).status).toBe(401);
    expect((await call(b.base, 'GET', '/api/auth/sessions', customer.token)).status).toBe(200);
    stream.close();
  });

  it('finishes a second step begun on one instance on the other, and takes each code once across both', async () => {
    const customer = await customerOver(b.base);
    const setup = (await call<TotpSetup>(a.base, 'POST', '/api/auth/totp/setup', customer.token, { password: 'Secret123' })).body;
    expect((await call(b.base, 'POST', '/api/auth/totp/enable', customer.token, { code: (await generateTOTP({ secret: setup.secret })).otp })).status).toBe(200);

    const challengeOn = async (base: string) => ((await call<LoginAnswer>(base, 'POST', '/api/auth/login', undefined, { email: customer.email, password: 'Secret123' })).body as { challenge: string }).challenge;
    // The next step's code (the set-up took this one), within the drift window.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 30_000 });
    let code: string;
    try {
      code = (await generateTOTP({ secret: setup.secret })).otp;
    } finally {
      vi.useRealTimers();
    }
    const signedIn = await call<Session>(b.base, 'POST', '/api/auth/login/totp', undefined, { challenge: await challengeOn(a.base), code });
    expect(signedIn.status).toBe(200);
    expect((await call(a.base, 'POST', '/api/auth/login/totp', undefined, { challenge: await challengeOn(b.base), code })).body).toEqual({ error: securityMessages.codeWrong });
  });
});
