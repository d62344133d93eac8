import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import type { AdminUserPatch } from '@keystore/contract';
import { messageOf } from '../../lib/api.ts';
import { formatEuro } from '../../lib/money.ts';
import { showToast } from '../../ui/toasts.tsx';
import { AdminPage, ConfirmDialog, AdminTable, Time } from './admin-ui.tsx';
import { usePatchUser, userQuery } from './api.ts';
import { OrdersTable } from './orders-table.tsx';
import buttons from '../../ui/buttons.module.css';
import styles from './admin.module.css';

interface Change {
  patch: AdminUserPatch;
  title: string;
  text: string;
  done: string;
}

/** One customer: profile, orders, spend, tier, sign-ins, and Block/Unblock and the role. */
export function AdminUserPage() {
  const { id = '' } = useParams();
  const query = useQuery(userQuery(id));
  const patch = usePatchUser(id);
  const [asking, setAsking] = useState<Change | null>(null);
  const user = query.data;

  const run = (change: Change) =>
    patch.mutate(change.patch, {
      onSuccess: () => showToast(change.done),
      onError: (error) => showToast(messageOf(error, 'The change failed. Please try again.'), 'error'),
      onSettled: () => setAsking(null),
    });

  const actions = user && (
    <div className={buttons.actions}>
      <button
        type="button"
        className={user.blocked ? buttons.secondary : buttons.danger}
        onClick={() =>
          setAsking(
            user.blocked
              ? { patch: { blocked: false }, title: 'Unblock this account?', text: `${user.username} can sign in again.`, done: 'The account was unblocked.' }
              : {
                  patch: { blocked: true },
                  title: 'Block this account?',
                  text: `${user.username} is signed out everywhere at once and cannot sign in until unblocked.`,
                  done: 'The account was blocked.',
                },
          )
        }
      >
        {user.blocked ? 'Unblock' : 'Block'}
      </button>
      <button
        type="button"
        className={buttons.secondary}
        onClick={() =>
          setAsking(
            user.role === 'admin'
              ? { patch: { role: 'customer' }, title: 'Make a customer?', text: `${user.username} loses the back office.`, done: 'The role was changed to customer.' }
              : { patch: { role: 'admin' }, title: 'Make an administrator?', text: `${user.username} gets the whole back office.`, done: 'The role was changed to admin.' },
          )
        }
      >
        {user.role === 'admin' ? 'Make customer' : 'Make admin'}
      </button>
    </div>
  );

  return (
    <AdminPage title={user ? user.username : 'Customer'} query={query} actions={actions}>
      {user && (
        <>
          <section className={styles.panel} aria-labelledby="user-profile">
            <h2 id="user-profile" className={styles.subtitle}>
              Profile
            </h2>
            <dl className={styles.facts}>
              <dt>E-mail</dt>
              <dd>
                {user.email} {user.emailVerified ? '(confirmed)' : '(not confirmed)'}
              </dd>
              <dt>Role</dt>
              <dd>{user.role}</dd>
              <dt>Account</dt>
              <dd>{user.blocked ? <span className={styles.badge} data-tone="bad">Blocked</span> : 'Active'}</dd>
              <dt>Joined</dt>
              <dd><Time iso={user.createdAt} /></dd>
              <dt>Orders</dt>
              <dd>{user.orders}</dd>
              <dt>Spent</dt>
              <dd>{formatEuro(user.totalSpent)}</dd>
              <dt>Tier</dt>
              <dd>{user.membership}</dd>
            </dl>
          </section>
          <OrdersTable caption="Orders" withBuyer={false} rows={user.purchaseHistory.map((order) => ({ ...order, at: order.date }))} />
          <AdminTable caption="Sign-ins" columns={['Time', 'Address', 'Device', 'Session']}>
            {user.signIns.map((signIn, n) => (
              <tr key={`${signIn.at}-${n}`}>
                <th scope="row"><Time iso={signIn.at} /></th>
                <td className={styles.mono}>{signIn.ip ?? '—'}</td>
                <td>{signIn.device}</td>
                <td>{signIn.active ? 'Active' : 'Ended'}</td>
              </tr>
            ))}
          </AdminTable>
        </>
      )}
      {asking && (
        <ConfirmDialog title={asking.title} text={asking.text} confirmLabel="Confirm" busy={patch.isPending} onConfirm={() => run(asking)} onClose={() => setAsking(null)} />
      )}
    </AdminPage>
  );
}
