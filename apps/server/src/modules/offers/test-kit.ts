// Fake sellers for the tests and the benchmark (issue 24): loopback HTTP servers that speak the seller's
// side of the webhook protocol, each with a behaviour. Every call is checked with verifySignature, the
// README's receiver, and recorded. A good seller is idempotent per reservation: asked twice, it hands
// over the same keys, as the protocol asks of a real one.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { SIGNATURE_HEADER } from '@keystore/contract';
import { verifySignature } from './signature.ts';

export type FakeBehaviour =
  /** Confirms every reservation and hands over fresh keys. */
  | 'good'
  /** Answers every call after `delayMs` (past a deadline shorter than it). */
  | 'slow'
  /** Confirms reservations at once, answers each provide after `delayMs`: a slow handover after payment. */
  | 'slow-provide'
  /** Confirms reservations, answers 500 to every provide. */
  | 'error'
  /** Hands over a key it handed over before (for another reservation). */
  | 'duplicate'
  /** Hands over one key more than asked. */
  | 'wrong-count'
  /** Refuses every reservation ({ reserved: false }). */
  | 'refuse';

export interface FakeCall {
  type: string;
  reservationId?: string;
  quantity?: number;
  signed: boolean;
  at: number;
}

export interface FakeSeller {
  url: string;
  /** The signing secret the store answered; calls are verified with it. */
  secret: string;
  behaviour: FakeBehaviour;
  delayMs: number;
  calls: FakeCall[];
  /** Keys handed over per reservation. */
  handedOver: Map<string, string[]>;
  callsOf(type: string): FakeCall[];
  close(): Promise<void>;
}

let sequence = 0;

export async function startFakeSeller(behaviour: FakeBehaviour, options: { delayMs?: number; prefix?: string } = {}): Promise<FakeSeller> {
  const prefix = options.prefix ?? `F${process.pid.toString(36).toUpperCase()}${(sequence += 1)}`;
  let keyNumber = 0;
  const fake: FakeSeller = {
    url: '',
    secret: '',
    behaviour,
    delayMs: options.delayMs ?? 0,
    calls: [],
    handedOver: new Map(),
    callsOf: (type) => fake.calls.filter((call) => call.type === type),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const freshKeys = (count: number) => Array.from({ length: count }, () => `${prefix}-${String((keyNumber += 1)).padStart(5, '0')}-KEYS`);
  const answer = (payload: { type: string; reservationId?: string; quantity?: number }): { status: number; body?: unknown } => {
    const quantity = payload.quantity ?? 1;
    switch (payload.type) {
      case 'ping':
      case 'cancel':
        return { status: 200, body: { ok: true } };
      case 'reserve':
        return { status: 200, body: { reserved: fake.behaviour !== 'refuse' } };
      case 'provide': {
        if (fake.behaviour === 'error') return { status: 500, body: { error: 'out of keys' } };
        const before = fake.handedOver.get(payload.reservationId!);
        if (before) return { status: 200, body: { keys: before } };
        const known = [...fake.handedOver.values()].flat();
        const keys =
          fake.behaviour === 'duplicate' && known.length > 0
            ? [known[0]!, ...freshKeys(quantity - 1)]
            : freshKeys(fake.behaviour === 'wrong-count' ? quantity + 1 : quantity);
        fake.handedOver.set(payload.reservationId!, keys);
        return { status: 200, body: { keys } };
      }
      default:
        return { status: 400, body: { error: 'unknown type' } };
    }
  };
  const server: Server = createServer((request: IncomingMessage, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      void (async () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const signed = verifySignature(String(request.headers[SIGNATURE_HEADER.toLowerCase()] ?? ''), body, fake.secret);
        const payload = JSON.parse(body) as { type: string; reservationId?: string; quantity?: number };
        fake.calls.push({ type: payload.type, reservationId: payload.reservationId, quantity: payload.quantity, signed, at: Date.now() });
        if (fake.behaviour === 'slow' && payload.type !== 'cancel') await sleep(fake.delayMs);
        if (fake.behaviour === 'slow-provide' && payload.type === 'provide') await sleep(fake.delayMs);
        const { status, body: out } = signed ? answer(payload) : { status: 401, body: { error: 'bad signature' } };
        if (response.destroyed) return;
        response.writeHead(status, { 'content-type': 'application/json' }).end(out === undefined ? '' : JSON.stringify(out));
      })();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/keystore`;
  return fake;
}
