// Test support shared by the web app's component tests (never imported by the app itself): a
// customer, the API answered at the network boundary (MSW) by 'METHOD /path', a stand-in for the
// auth dialogs, and the reset of the app-wide stores between tests.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { http } from 'msw';
import { vi } from 'vitest';
import { closeAuthDialog, useAuthDialog } from '../lib/auth-dialog.ts';
import { clearSession } from '../lib/session.ts';
import { STORAGE_KEYS } from '../lib/storage-keys.ts';
import { clearToasts } from '../ui/toasts.tsx';
import { backgroundHandlers, server } from './server.ts';

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
 * Answers the API through MSW (test/server.ts): each request is answered by `routes['METHOD /path']`
 * (the path with its query); these routes replace those of an earlier call. A request no route
 * answers fails the test; one meant to get no answer says so with `networkError`. Answers the list of
 * requests made, in order.
 */
export function stubApi(routes: ApiRoutes): ApiCall[] {
  const calls: ApiCall[] = [];
  server.resetHandlers(
    // Only the listed routes match: any other request is unhandled, and MSW's onUnhandledRequest fails the test.
    http.all(({ request }) => Object.hasOwn(routes, routeOf(request)), async ({ request }) => {
      const call: ApiCall = { route: routeOf(request) };
      if (request.body !== null) call.body = await bodyOf(request);
      const authorization = request.headers.get('Authorization');
      if (authorization) call.authorization = authorization;
      const idempotencyKey = request.headers.get('Idempotency-Key');
      if (idempotencyKey) call.idempotencyKey = idempotencyKey;
      calls.push(call);
      try {
        return await routes[call.route]!(call);
      } catch {
        // An answer that throws (a rejected promise) stands for a lost connection.
        return Response.error();
      }
    }),
    // Unless the test answers them itself: the calls every page makes in the background, not recorded.
    ...backgroundHandlers,
  );
  return calls;
}

/** 'METHOD /path?query', as routes are keyed. */
function routeOf(request: Request): string {
  const url = new URL(request.url);
  return `${request.method} ${url.pathname}${url.search}`;
}

/** The answer of a lost connection: the request fails as fetch fails when no answer comes. */
export const networkError: Answer = () => Response.error();

/** A sent body as the server reads it: parsed JSON, the FormData of an upload, or the text. */
async function bodyOf(request: Request): Promise<unknown> {
  const type = request.headers.get('Content-Type') ?? '';
  if (type.includes('application/json')) return JSON.parse(await request.text());
  const boundary = /multipart\/form-data;\s*boundary=("?)([^";]+)\1/.exec(type)?.[2];
  if (boundary) return multipartForm(new Uint8Array(await request.arrayBuffer()), boundary);
  return request.text();
}

/**
 * Reads an upload as the server would (fields, and files with their name, type and bytes). Node's own
 * `request.formData()` cannot be used here: under jsdom it builds its files with jsdom's File class
 * and then refuses them.
 */
function multipartForm(bytes: Uint8Array, boundary: string): FormData {
  const form = new FormData();
  // latin1 maps each byte to one character, so text offsets are byte offsets.
  const text = new TextDecoder('latin1').decode(bytes);
  const parts = text.split(`--${boundary}`);
  let start = parts[0]!.length + boundary.length + 2;
  for (const part of parts.slice(1, -1)) {
    const headerEnd = part.indexOf('\r\n\r\n');
    const headers = part.slice(0, headerEnd);
    const content = bytes.slice(start + headerEnd + 4, start + part.length - 2);
    const name = /name="([^"]*)"/.exec(headers)?.[1] ?? '';
    const filename = /filename="([^"]*)"/.exec(headers)?.[1];
    if (filename === undefined) form.append(name, new TextDecoder().decode(content));
    else form.append(name, new File([content], filename, { type: /Content-Type: (.+)/i.exec(headers)?.[1]?.trim() ?? '' }));
    start += part.length + boundary.length + 2;
  }
  return form;
}

/**
 * A stored token being checked, as on a page load (brought about here by the storage event): the
 * session stays 'restoring' until the returned function answers the profile request. `routes` answers
 * what the page asks for meanwhile or afterwards.
 */
export function restoringSession(routes: ApiRoutes = {}): (response: Response) => Promise<void> {
  // The request reaches the API a moment after the storage event: the answer waits for it.
  let arrived!: (answer: (response: Response) => void) => void;
  const answer = new Promise<(response: Response) => void>((resolve) => (arrived = resolve));
  stubApi({ ...routes, 'GET /api/users/profile': () => new Promise<Response>((resolve) => arrived(resolve)) });
  act(() => {
    localStorage.setItem(STORAGE_KEYS.token, 'stored-token');
    window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.token }));
  });
  return (response) => act(async () => (await answer)(response));
}

/** A query client as each test wants it: its own cache, and a failed load shown at once rather than tried again. */
export function testQueryClient(): QueryClient {
  return new QueryClient({ defaultOptions: { queries: { retry: false } } });
}

/** Renders `ui` inside a fresh query client, as the app's providers hold every page (queries and mutations need one). */
export function renderWithQueries(ui: ReactNode) {
  return render(<QueryClientProvider client={testQueryClient()}>{ui}</QueryClientProvider>);
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
