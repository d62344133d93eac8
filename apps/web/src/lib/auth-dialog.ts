import { useSyncExternalStore } from 'react';

/** The auth dialogs of SPEC §2 and the flow between them (SPEC §4). */
export type AuthView = 'login' | 'signup' | 'confirm' | 'forgot' | 'verifyNewDevice' | 'reset-password' | 'reset-success';

export interface AuthDialogState {
  /** The open dialog, or null when none is. */
  view: AuthView | null;
  /** The e-mail the flow is about (carried from login to confirm, verifyNewDevice, reset). */
  email?: string;
  /** The reset token of a /reset-password link. */
  token?: string;
}

type Listener = () => void;
const listeners = new Set<Listener>();
let state: AuthDialogState = { view: null };

function subscribe(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The open auth dialog; any part of the app may open one (the library, the bottom bar, checkout). */
export function useAuthDialog(): AuthDialogState {
  return useSyncExternalStore(subscribe, () => state, () => state);
}

/** Opens (or switches to) an auth dialog. */
export function openAuthDialog(view: AuthView, details: Omit<AuthDialogState, 'view'> = {}): void {
  state = { view, ...details };
  for (const listener of listeners) listener();
}

export function closeAuthDialog(): void {
  state = { view: null };
  for (const listener of listeners) listener();
}
