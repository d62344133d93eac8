import { IDEMPOTENCY_KEY_HEADER } from '@keystore/contract/constants';
import { fetchRetryingBusy, retryAfterSeconds } from './busy-retry.ts';
import { authHeaders } from './session.ts';

/** An answer of the API other than 2xx, carrying the server's `error` text. */
export class ApiError extends Error {
  readonly status: number;
  /** Seconds to wait, from the Retry-After of a 429 or of a busy store's 503. */
  readonly retryAfter: number | undefined;
  /** Whether the server said anything: false for a network failure or an answer without `error`. */
  readonly fromServer: boolean;
  /** The whole answer, for the few that say more than `error` (a 409 of POST /api/orders with new `prices`). */
  readonly body: unknown;
  constructor(status: number, message: string, options: { retryAfter?: number; fromServer?: boolean; body?: unknown } = {}) {
    super(message);
    this.status = status;
    this.retryAfter = options.retryAfter;
    this.fromServer = options.fromServer ?? true;
    this.body = options.body;
  }
}

/** The server's own `error` text when it gave one, else `fallback` (SPEC §8: "server error, else …"). */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.fromServer ? error.message : fallback;
}

/** Whether the server refused the call (4xx): the same call again gets the same answer, unlike one that got no answer or a 5xx. */
export function isRefusal(error: unknown): boolean {
  return error instanceof ApiError && error.status >= 400 && error.status < 500;
}

/** Whether a failure is a busy store, asked again already by fetchRetryingBusy: nobody need retry it once more. */
export function isStoreBusy(error: unknown): boolean {
  return error instanceof ApiError && error.status === 503 && error.retryAfter !== undefined;
}

/**
 * Calls the store's own API and answers the parsed JSON, or throws an ApiError with the server's message.
 * `Answer` names the contract's type of the answer (`apiGet<Order>(…)`).
 */
export async function apiGet<Answer>(path: string, init?: RequestInit): Promise<Answer> {
  return request<Answer>(path, init, true);
}

/** A request body: a contract request type sent as JSON, or FormData for an upload. */
export type RequestBody = object | undefined;

export interface SendOptions {
  /**
   * Sent as the Idempotency-Key header: the server answers a repeat with what the first call did, so the
   * call is also repeated when the store is busy.
   */
  idempotencyKey?: string;
  /** The call changes nothing when made twice (paying an order): it is repeated when the store is busy. */
  repeatable?: boolean;
}

/**
 * Sends a body (JSON, or FormData for uploads) with the session's headers. A network failure throws
 * an ApiError with status 0, so callers can tell "no answer" from "the server said no". `Body` is never
 * inferred from the value: a call that sends one names the contract's request type
 * (`apiSend<Order, CreateOrderRequest>(…)`), so a body that drifts from the contract fails the typecheck.
 */
export async function apiSend<Answer, Body extends RequestBody = undefined>(
  method: 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  path: string,
  body?: NoInfer<Body>,
  options: SendOptions = {},
): Promise<Answer> {
  const isForm = body instanceof FormData;
  const headers: Record<string, string> = body === undefined || isForm ? {} : { 'Content-Type': 'application/json' };
  if (options.idempotencyKey !== undefined) headers[IDEMPOTENCY_KEY_HEADER] = options.idempotencyKey;
  const repeatable = options.repeatable === true || options.idempotencyKey !== undefined;
  return request<Answer>(path, { method, body: body === undefined ? undefined : isForm ? body : JSON.stringify(body), headers }, repeatable);
}

async function request<Answer>(path: string, init: RequestInit | undefined, repeatable: boolean): Promise<Answer> {
  let response: Response;
  try {
    response = await fetchRetryingBusy(path, { ...init, headers: { Accept: 'application/json', ...authHeaders(), ...init?.headers } }, repeatable);
  } catch {
    throw new ApiError(0, 'No response from server', { fromServer: false });
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const said = typeof body === 'object' && body !== null && 'error' in body;
    const retryAfter = retryAfterSeconds(response.headers.get('Retry-After'));
    throw new ApiError(response.status, said ? String(body.error) : response.statusText, { retryAfter, fromServer: said, body });
  }
  return body as Answer;
}
