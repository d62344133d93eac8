import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { WishlistItem, WishlistMerge } from '@keystore/contract';
import { apiGet, apiSend } from './api.ts';
import { currentSession, onSessionChange } from './session.ts';
import { STORAGE_KEYS } from './storage-keys.ts';

/**
 * The games wished for (issue 31), as every heart shows them: game id → when. A visitor's live in
 * localStorage; a customer's are the server's (GET /api/wishlist), and a visitor's list joins the
 * account at sign-in. `version` moves at every change, so the wishlist page knows to read again.
 */
const wishStore = createStore<{ wished: Record<string, string>; version: number }>(() => ({ wished: signedIn() ? {} : readLocal(), version: 0 }));

function signedIn(): boolean {
  return currentSession().status !== 'signed-out';
}

function readLocal(): Record<string, string> {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(STORAGE_KEYS.wishlist) ?? '{}');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, string>) : {};
  } catch {
    return {};
  }
}

function show(wished: Record<string, string>, local: boolean): void {
  if (local) {
    try {
      localStorage.setItem(STORAGE_KEYS.wishlist, JSON.stringify(wished));
    } catch {
      // Storage full or disabled: the list lasts as long as the tab.
    }
  }
  wishStore.setState((state) => ({ wished, version: state.version + 1 }));
}

const fromServer = (items: WishlistItem[]) => Object.fromEntries(items.map((item) => [item.gameId, item.addedAt]));

/** Reads the customer's list, first joining a visitor's list kept in this browser to it. */
async function loadAccountList(): Promise<void> {
  const local = readLocal();
  const items = Object.entries(local).map(([gameId, addedAt]) => ({ gameId, addedAt }));
  const list = items.length > 0 ? await apiSend<WishlistItem[], WishlistMerge>('POST', '/api/wishlist/merge', { items }) : await apiGet<WishlistItem[]>('/api/wishlist');
  if (items.length > 0) show({}, true);
  show(fromServer(list), false);
}

if (typeof window !== 'undefined') {
  onSessionChange((session, before) => {
    if (session.status === 'signed-in' && before.status !== 'signed-in') void loadAccountList().catch(() => undefined);
    if (session.status === 'signed-out' && before.status !== 'signed-out') show(readLocal(), false);
  });
}

/** Whether a game is wished for; re-renders when that changes. */
export function useWished(gameId: string): boolean {
  return useStore(wishStore, (state) => gameId in state.wished);
}

/** The wished games (id → when), how many, and the list's version. */
export function useWishlistState(): { wished: Record<string, string>; count: number; version: number } {
  const { wished, version } = useStore(wishStore);
  return { wished, count: Object.keys(wished).length, version };
}

/** Adds a game to the wishlist or takes it off; on the server's refusal the heart goes back and the refusal is thrown. */
export async function toggleWish(gameId: string): Promise<boolean> {
  const before = wishStore.getState().wished;
  const wished = !(gameId in before);
  const next = { ...before };
  if (wished) next[gameId] = new Date().toISOString();
  else delete next[gameId];
  const local = !signedIn();
  show(next, local);
  if (local) return wished;
  try {
    if (wished) await apiSend<unknown, object>('PUT', `/api/wishlist/${gameId}`, {});
    else await apiSend('DELETE', `/api/wishlist/${gameId}`);
  } catch (error) {
    show(before, false);
    throw error;
  }
  return wished;
}
