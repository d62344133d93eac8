// Test support shared by the web app's component tests (never imported by the app itself): a
// customer, the API stubbed at the network boundary (fetch) with answers by 'METHOD /path', a
// stand-in for the auth dialogs, and the reset of the app-wide stores between tests.
import { act, cleanup } from '@testing-library/react';
import { vi } from 'vitest';
import type { User } from '@keystore/contract';
import { STORAGE_KEYS } from '@keystore/contract/constants';
import { closeAuthDialog, useAuthDialog } from '../lib/auth-dialog.ts';
import { clearSession } from '../lib/session.ts';
import { clearToasts } from '../ui/toasts.tsx';

/** A customer with no orders yet; `overrides` sets what a test is about. */
export function testUser(overrides: Partial<User> = {}): User {
  return {
    _id: 'u1',
    username: 'keymaster',
    email: 'player@example.org',
    avatar: null,
    role: 'customer',
    createdAt: '2026-01-01T00:00:00Z',
    totalSpent: 0,
    totalGames: 0,
    membership: 'Key Newb',
    purchaseHistory: [],
    ...overrides,
  };
}

/** An answer of the API as the server sends it: JSON, or no body when `body` is undefined. */
export function json(status: number, body?: unknown, headers: Record<string, string> = {}): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json', ...headers } });
}

/** A request the stubbed API received. */
export interface ApiCall {
  /** 'METHOD /path', as the routes are keyed. */
  route: string;
  /** The JSON body parsed, or the FormData of an upload; absent when nothing was sent. */
  body?: unknown;
  /** The Authorization header, present only when a session token was sent. */
  authorization?: string;
  /** The Idempotency-Key header, present only when one was sent. */
  idempotencyKey?: string;
}

/** Answers one request; it sees the request, so the answer can depend on what was sent. */
export type Answer = (call: ApiCall) => Response | Promise<Response>;

export type ApiRoutes = Record<string, Answer>;

/**
 * Stubs fetch: each request is answered by `routes['METHOD /path']`, and one not listed fails like a
 * lost connection. Answers the list of requests made, in order.
 */
export function stubApi(routes: ApiRoutes): ApiCall[] {
  const calls: ApiCall[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
      const call: ApiCall = { route: `${init.method ?? 'GET'} ${String(input)}` };
      if (init.body != null) call.body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
      const headers = new Headers(init.headers);
      const authorization = headers.get('Authorization');
      if (authorization) call.authorization = authorization;
      const idempotencyKey = headers.get('Idempotency-Key');
      if (idempotencyKey) call.idempotencyKey = idempotencyKey;
      calls.push(call);
      const answer = routes[call.route];
      if (!answer) throw new TypeError(`Failed to fetch (no stubbed answer for ${call.route})`);
      return answer(call);
    }),
  );
  return calls;
}

/**
 * A stored token being checked, as on a page load (brought about here by the storage event): the
 * session stays 'restoring' until the returned function answers the profile request.
 */
export function restoringSession(): (response: Response) => Promise<void> {
  let answer!: (response: Response) => void;
  stubApi({ 'GET /api/users/profile': () => new Promise<Response>((resolve) => (answer = resolve)) });
  act(() => {
    localStorage.setItem(STORAGE_KEYS.token, 'stored-token');
    window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.token }));
  });
  return (response) => act(async () => answer(response));
}

/** Stands in for the auth dialogs (a feature of their own): tells which one was asked for. */
export function AuthDialogProbe() {
  return <output aria-label="Open auth dialog">{useAuthDialog().view ?? 'none'}</output>;
}

/** The auth dialog the probe shows open, or 'none'. */
export const openAuthDialogView = () => document.querySelector('output[aria-label="Open auth dialog"]')!.textContent;

/** Puts the app-wide state back after a test: unmounted, signed out, no dialog or toast, real fetch and timers. */
export function resetTestState(): void {
  cleanup();
  act(() => {
    closeAuthDialog();
    clearSession();
    clearToasts();
  });
  vi.unstubAllGlobals();
  vi.useRealTimers();
}
