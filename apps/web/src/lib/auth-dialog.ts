import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';

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

const authDialogStore = createStore<AuthDialogState>(() => ({ view: null }));

/** The open auth dialog; any part of the app may open one (the library, the bottom bar, checkout). */
export function useAuthDialog(): AuthDialogState {
  return useStore(authDialogStore);
}

/** Opens (or switches to) an auth dialog; what the previous one carried is dropped. */
export function openAuthDialog(view: AuthView, details: Omit<AuthDialogState, 'view'> = {}): void {
  authDialogStore.setState({ view, ...details }, true);
}

export function closeAuthDialog(): void {
  authDialogStore.setState({ view: null }, true);
}
