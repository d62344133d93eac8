// Signed-in customers for server tests, made through the real flow a person goes through:
// register, read the code from the dev outbox, verify the e-mail (which trusts the test's
// address), log in. Tests of any area that need a bearer token start here.
import type { FastifyInstance } from 'fastify';
import type { Session, User } from '@keystore/contract';
import { usernameProblem } from '@keystore/contract/rules';

export interface SignedInUser {
  user: User;
  token: string;
  email: string;
  password: string;
  username: string;
  /** `{ authorization: 'Bearer …' }` for app.inject. */
  headers: { authorization: string };
}

let counter = 0;

/** `prefix` and a random part, drawn again when that part spells a word the username rules refuse. */
export function usernameWith(prefix: string, length = 6): string {
  for (;;) {
    const username = `${prefix}${Math.random().toString(36).slice(2, 2 + length)}`;
    if (usernameProblem(username) === undefined) return username;
  }
}

/** A fresh, verified customer with an open session. Names are unique within a test file. */
export async function signedInUser(app: FastifyInstance, account: { username?: string; email?: string; password?: string } = {}): Promise<SignedInUser> {
  counter += 1;
  const suffix = usernameWith(`Tester${counter}`, 4).slice('Tester'.length);
  const username = account.username ?? `Tester${suffix}`;
  const email = account.email ?? `tester${suffix}@gmail.com`;
  const password = account.password ?? 'Secret123';
  const registered = await app.inject({ method: 'POST', url: '/api/auth/register', payload: { username, email, password } });
  if (registered.statusCode !== 201) throw new Error(`register failed: ${registered.statusCode} ${registered.body}`);
  const code = await latestCode(app, email);
  const verified = await app.inject({ method: 'POST', url: '/api/auth/verify-email', payload: { email, code } });
  if (verified.statusCode !== 200) throw new Error(`verify-email failed: ${verified.statusCode} ${verified.body}`);
  const { token, user } = await logIn(app, email, password);
  return { user, token, email, password, username, headers: bearer(token) };
}

/** A new session (another device) for an account whose address is trusted already. */
export async function logIn(app: FastifyInstance, email: string, password: string): Promise<Session> {
  const answer = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
  const body = answer.json<Session | { error: string }>();
  if (answer.statusCode !== 200 || !('token' in body)) throw new Error(`login failed: ${answer.statusCode} ${answer.body}`);
  return body;
}

export function bearer(token: string): { authorization: string } {
  return { authorization: `Bearer ${token}` };
}

/** The 6-digit code of the newest mail to `email` in the dev outbox. */
export async function latestCode(app: FastifyInstance, email: string): Promise<string> {
  const answer = await app.inject({ method: 'GET', url: `/dev/mail/messages?to=${encodeURIComponent(email)}` });
  const [newest] = answer.json<Array<{ text: string }>>();
  const code = newest && /\b(\d{6})\b/.exec(newest.text)?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}
