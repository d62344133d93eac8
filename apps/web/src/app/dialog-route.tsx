import { useEffect, useRef, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { openAuthDialog, useAuthDialog } from '../lib/auth-dialog.ts';
import { pageComponent } from './router.tsx';

interface DialogRouteProps {
  view: 'login' | 'reset-password';
  children: ReactNode;
}

/**
 * A route that opens an auth dialog over a page (/login, /reset-password?email=…&token=…). Once the
 * flow is over and the dialog closes, the address becomes / so a reload does not open it again and
 * the reset token leaves the address bar.
 */
export function DialogRoute({ view, children }: DialogRouteProps) {
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const open = useAuthDialog().view;
  const seenOpen = useRef(false);
  const email = params.get('email') ?? undefined;
  const token = params.get('token') ?? undefined;

  useEffect(() => {
    openAuthDialog(view, view === 'reset-password' ? { email, token } : { email });
  }, [view, email, token]);

  useEffect(() => {
    if (open) seenOpen.current = true;
    else if (seenOpen.current) void navigate('/', { replace: true });
  }, [open, navigate]);

  return children;
}

// The home page's own lazy chunk, not an import of its feature: imported here too, the home page would
// become a chunk shared with /login and /reset-password, and / would load it behind a one-line chunk
// of its own (docs/decisions/027). These two pages load it after their own chunk.
const HomePage = pageComponent('home');

/** /login and /reset-password: their dialog over the home page. */
export function DialogOverHome({ view }: Pick<DialogRouteProps, 'view'>) {
  return (
    <DialogRoute view={view}>
      <HomePage />
    </DialogRoute>
  );
}
