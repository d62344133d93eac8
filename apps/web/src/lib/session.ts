import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { User } from '@keystore/contract';
import { fetchRetryingBusy } from './busy-retry.ts';
import { STORAGE_KEYS } from './storage-keys.ts';

/**
 * Who is using the store (SPEC §4, session): a stored token is restored on load by fetching the
 * profile; visitors carry a random session id instead. One store for the whole app, kept in step
 * across tabs through the storage event.
 */
export interface SessionState {
  /** `restoring` while a stored token is being checked against the server. */
  status: 'restoring' | 'signed-out' | 'signed-in';
  token: string | null;
  user: User | null;
}

const sessionStore = createStore<SessionState>(initialState);

function initialState(): SessionState {
  const token = readToken();
  return token ? { status: 'restoring', token, user: null } : { status: 'signed-out', token: null, user: null };
}

function readToken(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEYS.token);
  } catch {
    return null;
  }
}

function set(next: SessionState): void {
  sessionStore.setState(next, true);
}

function storeToken(token: string | null): void {
  try {
    if (token) localStorage.setItem(STORAGE_KEYS.token, token);
    else localStorage.removeItem(STORAGE_KEYS.token);
  } catch {
    // Storage disabled: the session lasts as long as the tab.
  }
}

/** The current session; re-renders when it changes. */
export function useSession(): SessionState {
  return useStore(sessionStore);
}

/** The session outside React (API calls, event handlers). */
export function currentSession(): SessionState {
  return sessionStore.getState();
}

/** Calls `listener` at every change of the session (the wishlist joins the account at sign-in). */
export function onSessionChange(listener: (session: SessionState, before: SessionState) => void): () => void {
  return sessionStore.subscribe(listener);
}

/** Starts a session with the token and user a login answered. */
export function signIn(token: string, user: User): void {
  storeToken(token);
  set({ status: 'signed-in', token, user });
}

/** Replaces the signed-in user (after a profile change). */
export function updateUser(user: User): void {
  const { token } = currentSession();
  if (token) set({ status: 'signed-in', token, user });
}

/** Forgets the session here without asking the server (a rejected token, a deleted account). */
export function clearSession(): void {
  storeToken(null);
  set({ status: 'signed-out', token: null, user: null });
}

/** Logs out: the server ends the session, and this browser forgets the token at once. */
export function signOut(): void {
  const { token } = currentSession();
  clearSession();
  if (token) void fetch('/api/auth/logout', { method: 'POST', headers: { Authorization: `Bearer ${token}` } }).catch(() => undefined);
}

/** The visitor's random session id, made on first use and kept (SPEC §3, local storage). */
export function visitorSessionId(): string {
  try {
    let id = localStorage.getItem(STORAGE_KEYS.sessionId);
    if (!id) {
      id = crypto.randomUUID();
      localStorage.setItem(STORAGE_KEYS.sessionId, id);
    }
    return id;
  } catch {
    return 'no-storage';
  }
}

/** What every API request carries: the browser's session id (the risk desk's browser, issue 29), and the bearer token when signed in. */
export function authHeaders(): Record<string, string> {
  const { token } = currentSession();
  const browser = { 'x-session-id': visitorSessionId() };
  return token ? { ...browser, Authorization: `Bearer ${token}` } : browser;
}

/** Checks a stored token by fetching the profile; any failure logs out silently (SPEC §4). */
export async function restoreSession(): Promise<void> {
  const { token } = currentSession();
  if (!token) return;
  try {
    // A busy store is asked again rather than taken for a rejected token, which would sign the customer out.
    const response = await fetchRetryingBusy('/api/users/profile', { headers: { Accept: 'application/json', Authorization: `Bearer ${token}` } }, true);
    if (currentSession().token !== token) return;
    if (!response.ok) throw new Error(String(response.status));
    set({ status: 'signed-in', token, user: (await response.json()) as User });
  } catch {
    if (currentSession().token === token) clearSession();
  }
}

// Logging in or out in another tab does the same here.
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key !== STORAGE_KEYS.token && event.key !== null) return;
    const token = readToken();
    if (token === currentSession().token) return;
    if (!token) return set({ status: 'signed-out', token: null, user: null });
    set({ status: 'restoring', token, user: null });
    void restoreSession();
  });
}
