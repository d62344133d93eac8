// Calls to a seller's endpoint (issue 24): a signed JSON POST, bounded in time and size, that follows
// no redirect. In production only https reaches out, and never to a private, loopback or link-local
// address: the host is resolved here and the connection made to the address that was checked, so a
// name that resolves elsewhere a moment later (DNS rebinding) cannot turn the store against its own network.
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { SIGNATURE_HEADER, WEBHOOK_ANSWER_MAX_BYTES } from '@keystore/contract';
import { signatureHeader } from './signature.ts';
import { requestIdHeaders } from '../../platform/request-context.ts';

/** What one call came to: a 2xx with its JSON body, or why not. */
export interface CallResult {
  ok: boolean;
  status: number | null;
  body: unknown;
  error: string | null;
  durationMs: number;
}

/** Address ranges a webhook may reach: the public internet only ('unicast'). */
const PUBLIC_RANGE = 'unicast';

/** Why an address may not be called, in production; undefined when it is a public one. */
export function refusedAddress(address: string): string | undefined {
  if (!ipaddr.isValid(address)) return 'not an address';
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  const range = parsed.range();
  return range === PUBLIC_RANGE ? undefined : `a ${range} address`;
}

export class WebhookClient {
  private readonly production: boolean;

  constructor(options: { production: boolean }) {
    this.production = options.production;
  }

  /** Why a URL cannot be a webhook (a scheme or an address production refuses); undefined when it can. */
  async problem(url: string): Promise<string | undefined> {
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, '');
    // Plain http only to this machine, and only outside production (a seller's test receiver, the tests' fakes).
    if (target.protocol !== 'https:' && !(target.protocol === 'http:' && !this.production && isLoopback(host))) return 'only https';
    if (!this.production) return undefined;
    if (isIP(host)) return refusedAddress(host);
    try {
      const addresses = await new Promise<LookupAddress[]>((resolve, reject) => dnsLookup(host, { all: true }, (error, found) => (error ? reject(error) : resolve(found))));
      return addresses.map((entry) => refusedAddress(entry.address)).find((problem) => problem !== undefined);
    } catch {
      return 'the host does not resolve';
    }
  }

  /** POSTs `payload` signed with `secret`; a 2xx answer's body is parsed as JSON (an empty one is null). */
  async call(url: string, secret: string, payload: object, timeoutMs: number): Promise<CallResult> {
    const started = performance.now();
    const done = (result: Omit<CallResult, 'durationMs'>): CallResult => ({ ...result, durationMs: Math.round(performance.now() - started) });
    const problem = await this.problem(url).catch(() => 'not a URL');
    if (problem) return done({ ok: false, status: null, body: null, error: `refused: ${problem}` });
    const body = JSON.stringify(payload);
    const target = new URL(url);
    const options: RequestOptions = {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), [SIGNATURE_HEADER]: signatureHeader(secret, body), 'user-agent': 'Keystore-Webhooks/1', ...requestIdHeaders() },
      signal: AbortSignal.timeout(timeoutMs),
      ...(this.production ? { lookup: publicOnlyLookup } : {}),
    };
    try {
      const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const request = (target.protocol === 'https:' ? httpsRequest : httpRequest)(target, options, (response: IncomingMessage) => {
          const chunks: Buffer[] = [];
          let size = 0;
          response.on('data', (chunk: Buffer) => {
            size += chunk.length;
            if (size > WEBHOOK_ANSWER_MAX_BYTES) {
              response.destroy();
              reject(new Error(`the answer is over ${WEBHOOK_ANSWER_MAX_BYTES / 1024} KB`));
              return;
            }
            chunks.push(chunk);
          });
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          response.on('error', reject);
        });
        request.on('error', reject);
        request.end(body);
      });
      if (answer.status >= 300 && answer.status < 400) return done({ ok: false, status: answer.status, body: null, error: 'redirects are not followed' });
      if (answer.status < 200 || answer.status >= 300) return done({ ok: false, status: answer.status, body: null, error: `HTTP ${answer.status}` });
      if (answer.text.trim() === '') return done({ ok: true, status: answer.status, body: null, error: null });
      try {
        return done({ ok: true, status: answer.status, body: JSON.parse(answer.text) as unknown, error: null });
      } catch {
        return done({ ok: false, status: answer.status, body: null, error: 'the answer is not JSON' });
      }
    } catch (error) {
      const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
      return done({ ok: false, status: null, body: null, error: timedOut ? `no answer within ${timeoutMs / 1000} s` : error instanceof Error ? error.message : String(error) });
    }
  }
}

/** Whether a host is this machine: `localhost` or a loopback address. */
function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  return ipaddr.isValid(host) && refusedAddress(host) === 'a loopback address';
}

/** A lookup that resolves like the system's and fails for any address production may not call. */
const publicOnlyLookup: LookupFunction = (hostname, options, callback) => {
  dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, '', 4);
    const list = addresses as unknown as LookupAddress[];
    const refused = list.map((entry) => refusedAddress(entry.address)).find((problem) => problem !== undefined);
    if (refused || list.length === 0) return callback(new Error(`refused: ${refused ?? 'no address'}`), '', 4);
    if ((options as { all?: boolean }).all) return (callback as unknown as (error: null, addresses: LookupAddress[]) => void)(null, list);
    callback(null, list[0]!.address, list[0]!.family);
  });
};
