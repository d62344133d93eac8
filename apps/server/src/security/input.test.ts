// The whole API under hostile input: every operation of /api/docs/json gets broken path
// parameters, query values and bodies, malformed JSON, other media types and broken multipart, as a
// visitor, a customer and (where a customer is refused) an admin. Whatever comes in, the answer is a
// 4xx or a success: never a 5xx, and never a stack trace, SQL or a framework's error object.
import { Readable } from 'node:stream';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createNewsRequestSchema, type News, type Notification, type Purchase } from '@keystore/contract';
import { ordersTestApp, type Buyer, type OrdersTestApp } from '../modules/orders/test-kit.ts';
import { multipart } from '../test/multipart.ts';
import {
  BAD_AUTHORIZATIONS,
  HOSTILE_STRINGS,
  JSON_VALUES,
  RAW_BODIES,
  SAMPLED_STRINGS,
  URL_VALUES,
  WRONG_TYPES,
} from '../test/fuzz/inputs.ts';
import { exampleOf, operationsOf, placesIn, REMOVE, withPlace, type JsonSchema, type KnownValues, type OpenApiDocument, type Operation } from '../test/fuzz/operations.ts';

/** Text an answer must never show: stack frames, file paths, SQL and driver errors, Fastify's error objects. */
const LEAKS = [/^\s+at .+[:(]/m, /node_modules/, /\.ts:\d+/, /syntax error/i, /violates/i, /\brelation "/, /ERROR:/, /invalid byte sequence/i, /FST_/, /"statusCode"/, /drizzle|pglite/i];

/** Bodies the description cannot show: these routes read multipart forms by hand (their JSON form is this schema). */
const UNDOCUMENTED_BODIES: Record<string, JsonSchema> = {
  'POST /api/news': z.toJSONSchema(createNewsRequestSchema, { io: 'input' }) as JsonSchema,
};
/** Where a multipart route expects its file. */
const FILE_FIELDS = ['avatar', 'coverImage'];
const FILE_PAYLOADS = [Buffer.alloc(0), Buffer.from('not an image \u0000'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(20_000, 0xff)];

interface Case {
  label: string;
  options: InjectOptions;
}

type Caller = { name: string; headers: Record<string, string> };

let t: OrdersTestApp;
let docs: OpenApiDocument;
let customer: Buyer;
let admin: Buyer;
/** Ids that exist, by the path they appear in: a valid id lets a broken body reach the handler. */
let realIds: Array<[pathPart: string, id: string]>;
let known: KnownValues;

/**
 * Input the database itself refused: answered 400 or 409 by the error handler, never a 500, but a
 * sign that a schema let it through (a bound or a rule missing). The fuzz fails on any.
 */
const refusedByDatabase: string[] = [];

beforeAll(async () => {
  // Limits raised so that 429s (a fine answer) do not hide what the handlers do with the input.
  t = await ordersTestApp({
    env: { RATE_LIMIT_SCALE: '1000' },
    logger: {
      level: 'warn',
      stream: {
        write: (line: string) => {
          if (line.includes('request refused by the database')) refusedByDatabase.push(line.slice(0, 500));
        },
      },
    },
  });
  [customer, admin] = [await t.buyer(), await t.buyer('admin')];
  const gameId = await t.gameWithStock(50);
  const paid = await t.order(customer, gameId);
  await t.pay(customer, paid.order._id);
  const [purchase] = (await t.app.inject({ url: '/api/purchases', headers: customer.headers })).json<Purchase[]>();
  const open = await t.order(customer, gameId);
  const news = (await t.app.inject({ method: 'POST', url: '/api/news', headers: admin.headers, payload: { title: 'Fuzz', category: 'Tests', content: 'Body' } })).json<News>();
  const notification = (
    await t.app.inject({ method: 'POST', url: '/api/admin/notifications', headers: admin.headers, payload: { title: 'Fuzz', text: 'Body' } })
  ).json<Notification>();
  realIds = [
    ['/games/', gameId],
    ['/orders/', open.order._id],
    ['/payments/', open.order._id],
    ['/purchases/', purchase!._id],
    ['/news/', news._id],
    ['/notifications/', notification._id],
  ];
  known = {
    email: 'fuzzer@gmail.com',
    username: 'Fuzzer1',
    password: 'Secret123',
    currentPassword: 'Secret123',
    newPassword: 'Secret456',
    code: '123456',
    token: 'not-a-reset-token',
    gameId,
    quantity: 1,
    // The declined test card: a valid request closes the order without paying it.
    cardNumber: '4000 0000 0000 0002',
    expiry: '12/39',
    cvc: '123',
    coverImage: null,
    author: 'Admin',
  };
  docs = (await t.app.inject({ url: '/api/docs/json' })).json<OpenApiDocument>();
}, 120_000);

afterAll(() => t?.close());

/** The URL of an operation with its path parameters filled in (`override` replaces one of them). */
function urlOf(operation: Operation, override?: { name: string; value: string }): string {
  return operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    if (override?.name === name) return override.value;
    return realIds.find(([part]) => operation.path.includes(part))?.[1] ?? 'nosuchthing.webp';
  });
}

function queryOf(operation: Operation): Record<string, string> {
  return Object.fromEntries(operation.query.map(({ name, schema }) => [name, String(exampleOf(schema, docs, known, name))]));
}

function bodySchemaOf(operation: Operation): JsonSchema | undefined {
  return operation.body ?? UNDOCUMENTED_BODIES[`${operation.method} ${operation.path}`];
}

/** Every request the fuzz sends to one operation for one caller. */
function* casesOf(operation: Operation): Generator<Case> {
  const { method } = operation;
  const url = urlOf(operation);
  const query = queryOf(operation);
  const schema = bodySchemaOf(operation);
  const example = schema ? exampleOf(schema, docs, known) : undefined;
  const json = (payload: unknown) => (payload === undefined ? {} : { payload: JSON.stringify(payload), headers: { 'content-type': 'application/json' } });
  yield { label: 'example', options: { method, url, query, ...json(example) } };

  for (const name of operation.pathParams) {
    for (const value of URL_VALUES) yield { label: `path ${name}`, options: { method, url: urlOf(operation, { name, value }), query, ...json(example) } };
  }
  for (const { name } of operation.query) {
    const rest = Object.entries(query).filter(([key]) => key !== name).map(([key, value]) => `${key}=${encodeURIComponent(value)}`);
    for (const value of [...URL_VALUES, `1&${name}=2`]) yield { label: `query ${name}`, options: { method, url: `${url}?${[...rest, `${name}=${value}`].join('&')}`, ...json(example) } };
  }
  yield { label: 'unknown query', options: { method, url: `${url}?unknown=%00&__proto__=1`, ...json(example) } };

  if (method === 'GET' || method === 'HEAD') return;
  if (example !== undefined) {
    for (const place of placesIn(example)) {
      for (const value of [REMOVE, ...JSON_VALUES]) yield { label: `body ${place.join('.')}`, options: { method, url, query, ...json(withPlace(example, place, value)) } };
    }
    for (const value of [...WRONG_TYPES, 'a string']) yield { label: 'body type', options: { method, url, query, ...json(value) } };
    yield { label: 'extra fields', options: { method, url, query, ...json({ ...(example as object), extra: '\u0000', role: 'admin', _id: 'x', isAdmin: true }) } };
  }
  for (const { contentType, payload } of RAW_BODIES) {
    yield { label: `raw ${contentType?.slice(0, 40) ?? 'none'}`, options: { method, url, query, payload, headers: contentType ? { 'content-type': contentType } : {} } };
  }
}

/** Multipart forms: each text field of the example broken in turn, and files that are not images. */
async function* formsOf(operation: Operation): AsyncGenerator<Case> {
  if (operation.body || (operation.method !== 'POST' && operation.method !== 'PUT')) return;
  const schema = bodySchemaOf(operation);
  const example = (schema ? exampleOf(schema, docs, known) : {}) as Record<string, unknown>;
  const fields = Object.fromEntries(Object.entries(example).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
  const send = async (label: string, parts: Parameters<typeof multipart>[0]): Promise<Case> => {
    const form = await multipart(parts);
    return { label, options: { method: operation.method, url: urlOf(operation), payload: form.payload, headers: { 'content-type': form.contentType } } };
  };
  for (const name of Object.keys(fields)) {
    for (const value of [...HOSTILE_STRINGS, ...SAMPLED_STRINGS]) yield send(`form ${name}`, { ...fields, [name]: value });
  }
  for (const field of FILE_FIELDS) {
    for (const data of FILE_PAYLOADS) yield send(`form file ${field}`, { ...fields, [field]: { data, filename: '\u0000../../x.png', type: 'image/png' } });
  }
}

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** Sends one request; an event stream that opens is closed at once (its answer is the 200 of its headers). */
async function send(options: InjectOptions): Promise<Answer> {
  const response = await t.app.inject({ ...options, payloadAsStream: true });
  const contentType = String(response.headers['content-type'] ?? '');
  const stream = response.stream() as Readable;
  if (contentType.startsWith('text/event-stream')) {
    stream.destroy();
    return { status: response.statusCode, contentType, body: '' };
  }
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Buffer));
  return { status: response.statusCode, contentType, body: Buffer.concat(chunks).toString('utf8') };
}

/** What is wrong with an answer, or undefined when it is a fine answer to hostile input. */
function problemWith(answer: Answer): string | undefined {
  if (answer.status >= 500) return `status ${answer.status}`;
  const leak = LEAKS.find((pattern) => pattern.test(answer.body));
  if (leak) return `leaks ${leak}`;
  if (answer.status >= 400 && answer.contentType.startsWith('application/json')) {
    let body: unknown;
    try {
      body = JSON.parse(answer.body);
    } catch {
      return 'error answer is not JSON';
    }
    const keys = body && typeof body === 'object' ? Object.keys(body) : [];
    // A placement's 409 may add the new prices the cart should show (priceConflictSchema), nothing else.
    const allowed = answer.status === 409 ? ['error', 'prices'] : ['error'];
    if (!keys.includes('error') || keys.some((key) => !allowed.includes(key)) || typeof (body as { error?: unknown }).error !== 'string') return 'error answer is not {error}';
  }
  return undefined;
}

/** Operations that end the caller's session or account run with a customer of their own, last. */
const destructive = (operation: Operation) => operation.method === 'DELETE' || operation.path.endsWith('/logout');

describe('the API under hostile input', () => {
  it('answers every broken request with a 4xx or a success, never a 5xx or a leak', { timeout: 120_000 }, async () => {
    const operations = operationsOf(docs).sort((a, b) => Number(destructive(a)) - Number(destructive(b)));
    // One line per kind of failure (operation, broken part, caller, problem), with its first answer.
    const failures = new Map<string, string>();
    const statuses = new Map<string, number>();
    let requests = 0;
    let failed = 0;
    const check = async (caller: Caller, operation: Operation, sample: Case) => {
      requests += 1;
      const options = { ...sample.options, headers: { ...sample.options.headers, ...caller.headers } };
      const answer = await send(options);
      const status = answer.status === 429 ? '429' : `${String(answer.status)[0]}xx`;
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      const problem = problemWith(answer);
      if (problem) {
        failed += 1;
        const kind = `${operation.method} ${operation.path} [${sample.label}] as ${caller.name}: ${problem}`;
        if (!failures.has(kind)) failures.set(kind, `${kind}: ${answer.body.slice(0, 160)}`);
      }
      return answer;
    };

    for (const operation of operations) {
      const owner = destructive(operation) ? await t.buyer() : customer;
      const callers: Caller[] = [{ name: 'visitor', headers: {} }, { name: 'customer', headers: owner.headers }];
      const [example] = casesOf(operation);
      if ((await check(callers[1]!, operation, example!)).status === 403) callers.push({ name: 'admin', headers: admin.headers });
      for (const caller of callers) {
        for (const sample of casesOf(operation)) await check(caller, operation, sample);
        for await (const sample of formsOf(operation)) await check(caller, operation, sample);
      }
      for (const authorization of BAD_AUTHORIZATIONS) await check({ name: 'a bad token', headers: { authorization } }, operation, example!);
      for (const sessionId of ['', 'x'.repeat(10_000), '%00', '\u00ff\u00fe']) await check({ name: 'a visitor session', headers: { 'x-session-id': sessionId } }, operation, example!);
    }

    const byStatus = [...statuses].sort().map(([status, count]) => `${status} ${count}`).join(', ');
    console.log(`fuzz: ${requests} requests over ${operations.length} operations (${byStatus}), ${failed} server errors or leaks`);
    expect([...failures.values()]).toEqual([]);
    expect(refusedByDatabase, 'input only the database refused: a request schema should have').toEqual([]);
  });
});
