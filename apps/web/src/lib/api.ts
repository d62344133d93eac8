import { authHeaders } from './session.ts';

/** An answer of the API other than 2xx, carrying the server's `error` text. */
export class ApiError extends Error {
  readonly status: number;
  /** Seconds to wait, from a 429's Retry-After. */
  readonly retryAfter: number | undefined;
  /** Whether the server said anything: false for a network failure or an answer without `error`. */
  readonly fromServer: boolean;
  constructor(status: number, message: string, options: { retryAfter?: number; fromServer?: boolean } = {}) {
    super(message);
    this.status = status;
    this.retryAfter = options.retryAfter;
    this.fromServer = options.fromServer ?? true;
  }
}

/** The server's own `error` text when it gave one, else `fallback` (SPEC §8: "server error, else …"). */
export function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.fromServer ? error.message : fallback;
}

/** Calls the store's own API and answers the parsed JSON, or throws an ApiError with the server's message. */
export async function apiGet<T>(path: string, init?: RequestInit): Promise<T> {
  return request<T>(path, init);
}

/**
 * Sends a body (JSON, or FormData for uploads) with the session's headers. A network failure throws
 * an ApiError with status 0, so callers can tell "no answer" from "the server said no".
 */
export async function apiSend<T>(method: 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const isForm = body instanceof FormData;
  return request<T>(path, {
    method,
    body: body === undefined ? undefined : isForm ? body : JSON.stringify(body),
    headers: body === undefined || isForm ? {} : { 'Content-Type': 'application/json' },
  });
}

async function request<T>(path: string, init?: RequestInit): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, { ...init, headers: { Accept: 'application/json', ...authHeaders(), ...init?.headers } });
  } catch {
    throw new ApiError(0, 'No response from server', { fromServer: false });
  }
  const body: unknown = await response.json().catch(() => undefined);
  if (!response.ok) {
    const said = typeof body === 'object' && body !== null && 'error' in body;
    const retryAfter = Number(response.headers.get('Retry-After')) || undefined;
    throw new ApiError(response.status, said ? String(body.error) : response.statusText, { retryAfter, fromServer: said });
  }
  return body as T;
}
