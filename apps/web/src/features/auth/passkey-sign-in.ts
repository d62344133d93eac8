import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import type { Session } from '@keystore/contract';
import { loginWithPasskey, passkeyLoginOptions } from './api.ts';

// The WebAuthn library loads when a passkey is first used (as the login dialog opens, for the
// e-mail field's suggestions): each page's first chunk lists every chunk it may load, and a shared
// chunk of it would be one more name there (docs/decisions/027).
const webauthn = () => import('@simplewebauthn/browser');

/** Whether this browser can sign in with a passkey at all (the check @simplewebauthn/browser makes). */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

/**
 * A passkey sign-in (issue 30): the store's single-use challenge, the browser's passkey prompt, and the
 * session the store answers. `autofill`: offered among the e-mail field's suggestions (conditional UI)
 * instead of a prompt, where the browser can; resolves undefined where it cannot.
 */
export async function signInWithPasskey({ autofill = false, live = () => true }: { autofill?: boolean; live?: () => boolean } = {}): Promise<Session | undefined> {
  const { browserSupportsWebAuthnAutofill, startAuthentication } = await webauthn();
  if (autofill && !(await browserSupportsWebAuthnAutofill())) return undefined;
  const { challengeId, options } = await passkeyLoginOptions();
  // Asked again after each wait: a dialog closed meanwhile starts no request of the browser's, and signs nobody in.
  if (!live()) return undefined;
  const credential = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON, useBrowserAutofill: autofill });
  if (!live()) return undefined;
  return loginWithPasskey({ challengeId, credential: credential as never });
}

/** Whether a passkey request ended because the person or the page ended it (nothing to tell them). */
export function passkeyRequestEnded(error: unknown): boolean {
  return error instanceof Error && (error.name === 'NotAllowedError' || error.name === 'AbortError');
}

/** Ends a waiting passkey request (the dialog closed): the browser stops offering it. */
export function cancelPasskeyRequest(): void {
  void webauthn().then(({ WebAuthnAbortService }) => WebAuthnAbortService.cancelCeremony());
}
