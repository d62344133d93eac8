import { useEffect, useRef } from 'react';
import { closeAuthDialog, useAuthDialog, type AuthDialogState, type AuthView } from '../../lib/auth-dialog.ts';
import { Modal } from '../../ui/modal.tsx';
import { ConfirmDialog } from './confirm-dialog.tsx';
import { ForgotDialog } from './forgot-dialog.tsx';
import { GuestDialog } from './guest-dialog.tsx';
import { LoginDialog } from './login-dialog.tsx';
import { NewDeviceDialog } from './new-device-dialog.tsx';
import { ResetPasswordDialog } from './reset-password-dialog.tsx';
import { ResetSuccess } from './reset-success.tsx';
import { SignupDialog } from './signup-dialog.tsx';
import { TotpDialog } from './totp-dialog.tsx';
import { SetupDialog } from './setup-dialog.tsx';

const TITLES: Record<AuthView, string> = {
  login: 'Login',
  signup: 'Sign Up',
  confirm: 'Confirm your email',
  forgot: 'Forgot password',
  verifyNewDevice: 'Verify new device',
  totp: 'Two-step verification',
  setup: 'Set up two-step verification',
  'reset-password': 'Reset password',
  'reset-success': 'Password has changed Successful',
  guest: 'Continue as guest',
};

function DialogBody({ view, email, token, checkout, challenge }: AuthDialogState & { view: AuthView }) {
  switch (view) {
    case 'login':
      return <LoginDialog email={email} checkout={checkout} />;
    case 'signup':
      return <SignupDialog />;
    case 'confirm':
      return <ConfirmDialog email={email ?? ''} />;
    case 'forgot':
      return <ForgotDialog email={email} />;
    case 'verifyNewDevice':
      return <NewDeviceDialog email={email ?? ''} />;
    case 'totp':
      // Only a password step leads here, with its challenge; without one the sign-in starts again.
      return challenge ? <TotpDialog email={email ?? ''} challenge={challenge} /> : <LoginDialog email={email} />;
    case 'setup':
      return challenge ? <SetupDialog email={email ?? ''} challenge={challenge} /> : <LoginDialog email={email} />;
    case 'reset-password':
      // Without a token it is a security mail's "This wasn't me" (issue 30): the reset link is asked for first.
      return token ? <ResetPasswordDialog email={email} token={token} /> : <ForgotDialog email={email} />;
    case 'reset-success':
      return <ResetSuccess email={email} />;
    case 'guest':
      // Only a purchase leads here; without one there is nothing to buy as a guest.
      return checkout ? <GuestDialog email={email} checkout={checkout} /> : <LoginDialog email={email} />;
  }
}

/**
 * The one modal overlay of the auth dialogs (SPEC §2): the shared Modal, whose title and body follow
 * the open view; each switch of dialog moves focus to the new dialog's first control.
 */
export function AuthModal() {
  const dialog = useAuthDialog();
  const body = useRef<HTMLDivElement>(null);

  useEffect(() => {
    body.current?.querySelector<HTMLElement>('input:not([disabled]), button:not([disabled]), a[href]')?.focus();
  }, [dialog.view]);

  if (!dialog.view) return null;
  return (
    <Modal title={TITLES[dialog.view]} onClose={closeAuthDialog}>
      <div ref={body}>
        <DialogBody key={dialog.view} {...dialog} view={dialog.view} />
      </div>
    </Modal>
  );
}
