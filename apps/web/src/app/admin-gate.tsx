import { AdminLayout } from '../features/admin/admin-area.tsx';
import { useSession } from '../lib/session.ts';
import { NotFoundPage } from './not-found-page.tsx';

/**
 * Every /admin page goes through here (in the back office's own chunk, src/pages/admin.tsx): the admin gets the back office, anyone else the store's 404
 * page, as if the area did not exist (the server refuses their calls anyway, 401 or 403). While a
 * stored session is being checked nothing is shown yet, so an admin reloading a page never sees 404.
 */
export function AdminGate() {
  const { status, user } = useSession();
  if (status === 'restoring') {
    return (
      <span className="visually-hidden" role="status">
        Loading
      </span>
    );
  }
  return user?.role === 'admin' ? <AdminLayout /> : <NotFoundPage />;
}
