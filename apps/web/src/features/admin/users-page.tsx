import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { messageOf } from '../../lib/api.ts';
import { formatEuro } from '../../lib/money.ts';
import { AdminPage, AdminTable, Pager, Time } from './admin-ui.tsx';
import { usersQuery } from './api.ts';
import buttons from '../../ui/buttons.module.css';
import dataTable from '../../ui/data-table.module.css';
import styles from './admin.module.css';

/** The store's customers, searchable by e-mail or username. */
export function AdminUsersPage() {
  const [params, setParams] = useSearchParams();
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const users = useQuery(usersQuery(q, page));

  const show = (nextQ: string, nextPage: number) => {
    const search = new URLSearchParams();
    if (nextQ) search.set('q', nextQ);
    if (nextPage > 1) search.set('page', String(nextPage));
    setParams(search);
  };
  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    show(String(new FormData(event.currentTarget).get('q') ?? '').trim(), 1);
  };

  return (
    <AdminPage title="Customers">
      <form key={q} className={styles.filters} onSubmit={search} role="search" aria-label="Find customers">
        <div className={styles.field}>
          <label htmlFor="users-q">Search</label>
          <input id="users-q" name="q" type="search" defaultValue={q} placeholder="E-mail or username" />
        </div>
        <button type="submit" className={buttons.primary}>
          Search
        </button>
      </form>
      {users.isPending && (
        <p className={styles.muted} role="status">
          Loading…
        </p>
      )}
      {users.isError && (
        <p className={styles.problem} role="alert">
          {messageOf(users.error, 'Could not load the customers. Please try again.')}
        </p>
      )}
      {users.data && (
        <>
          <AdminTable
            caption="Customers"
            captionHidden
            busy={users.isPlaceholderData}
            columns={['Username', 'E-mail', 'Role', 'Joined', { label: 'Orders', numeric: true }, { label: 'Spent', numeric: true }]}
          >
            {users.data.items.map((user) => (
              <tr key={user._id}>
                <th scope="row">
                  <Link to={`/admin/users/${user._id}`} className={styles.link}>
                    {user.username}
                  </Link>{' '}
                  {user.blocked && (
                    <span className={styles.badge} data-tone="bad">
                      Blocked
                    </span>
                  )}
                </th>
                <td>{user.email}</td>
                <td>{user.role}</td>
                <td><Time iso={user.createdAt} /></td>
                <td className={dataTable.number}>{user.orders}</td>
                <td className={dataTable.number}>{formatEuro(user.totalSpent)}</td>
              </tr>
            ))}
          </AdminTable>
          {users.data.items.length === 0 && <p className={`${styles.muted} ${styles.panel}`}>No customer matches.</p>}
          <Pager page={users.data.page} pageSize={users.data.pageSize} total={users.data.total} onPage={(next) => show(q, next)} />
        </>
      )}
    </AdminPage>
  );
}
