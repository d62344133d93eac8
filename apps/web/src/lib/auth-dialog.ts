import { useStore } from 'zustand';
import { createStore } from 'zustand/vanilla';
import type { CreateOrderRequest, GiftRequest } from '@keystore/contract';

/** The auth dialogs of SPEC §2 and the flow between them (SPEC §4); 'guest' buys without an account (issue 29); 'totp' is a sign-in's second step (issue 30). */
export type AuthView = 'login' | 'signup' | 'confirm' | 'forgot' | 'verifyNewDevice' | 'totp' | 'setup' | 'reset-password' | 'reset-success' | 'guest';

/** What a visitor was buying when checkout or 'Buy in 1 click' asked them to log in: the guest form places it. */
export interface PendingCheckout {
  items: CreateOrderRequest['items'];
  /** The gift the cart was asked to make of it (issue 29): the guest form starts with it. */
  gift?: GiftRequest;
  /** Sees a refused order, as the page that asked would (the cart takes a 409's new prices). */
  onError?: (error: unknown) => void;
}

export interface AuthDialogState {
  /** The open dialog, or null when none is. */
  view: AuthView | null;
  /** The e-mail the flow is about (carried from login to confirm, verifyNewDevice, reset). */
  email?: string;
  /** The reset token of a /reset-password link. */
  token?: string;
  /** The second step's challenge the password step answered (issue 30: the authenticator app's code). */
  challenge?: string;
  /** The purchase that opened the login dialog, carried to the guest form. */
  checkout?: PendingCheckout;
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
