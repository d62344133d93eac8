import { lazy, Suspense } from 'react';
import { useAuthDialog } from '../../lib/auth-dialog.ts';

// The dialogs, their forms and the validation rules load only when a dialog first opens, so the
// first page stays small (react-hook-form and the username word list are not in the initial bundle).
const AuthModal = lazy(async () => ({ default: (await import('./auth-modal.tsx')).AuthModal }));

/** Mounted once by the layout: shows the open auth dialog, if any. */
export function AuthDialogHost() {
  const { view } = useAuthDialog();
  if (!view) return null;
  return (
    <Suspense fallback={null}>
      <AuthModal />
    </Suspense>
  );
}
