// When the store sheds load it answers 503 with Retry-After (issue 12). A call that is safe to repeat
// is asked again after the advised wait, a bounded number of times, and the customer is told why it
// takes longer. Below ApiError on purpose: the session's own profile request uses it too.
import { loadMessages } from '@keystore/contract/load-messages';
import { showToastOnce } from '../ui/toasts.tsx';

/**
 * Asked again this many times, each after the advised wait plus a random share of it, so the clients
 * it turned away do not all come back at once. A wait longer than BUSY_WAIT_MAX_MS is not worth
 * holding a click for: the call gives up at once.
 */
const BUSY_RETRIES = 3;
const BUSY_WAIT_MAX_MS = 10_000;
const BUSY_JITTER_MIN_MS = 200;

/**
 * fetch, repeated while the store answers that it is busy when `repeatable` (the call changes nothing
 * when made twice: a GET, an order with an Idempotency-Key, a payment). Answers the last response.
 */
export async function fetchRetryingBusy(path: string, init: RequestInit | undefined, repeatable: boolean): Promise<Response> {
  for (let retry = 0; ; retry += 1) {
    const response = await fetch(path, init);
    const advised = response.status === 503 ? retryAfterSeconds(response.headers.get('Retry-After')) : undefined;
    if (!repeatable || advised === undefined) return response;
    // Said while the call waits, and again when it gives up: a page whose loading fails silently says nothing else.
    showToastOnce(loadMessages.storeBusy, 'error');
    const wait = retry < BUSY_RETRIES ? busyWaitMs(advised) : undefined;
    if (wait === undefined) return response;
    void response.body?.cancel();
    await pause(wait, init?.signal);
  }
}

/** A Retry-After header in seconds: a number of seconds, or an HTTP date; undefined when absent or unreadable. */
export function retryAfterSeconds(header: string | null): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(seconds, 0);
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : Math.max((date - Date.now()) / 1000, 0);
}

/** How long to wait before asking a busy store again, or undefined when it asked for too long a wait. */
function busyWaitMs(retryAfter: number): number | undefined {
  const advised = retryAfter * 1000;
  if (advised > BUSY_WAIT_MAX_MS) return undefined;
  return advised + Math.random() * Math.max(advised / 2, BUSY_JITTER_MIN_MS);
}

/** Waits `ms`, or rejects as soon as `signal` aborts (a query nobody needs any more stops waiting). */
function pause(ms: number, signal: AbortSignal | null | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const stop = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    signal?.addEventListener('abort', stop, { once: true });
  });
}
