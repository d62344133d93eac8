import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { AdminPage, AdminTable, Pager, Time } from './admin-ui.tsx';
import { auditQuery } from './api.ts';
import styles from './admin.module.css';

/** What an action changed, as "before → after" (either may be absent), short enough for a table cell. */
function change(before: unknown, after: unknown): string {
  const shown = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value));
  return before == null && after == null ? '—' : `${shown(before)} → ${shown(after)}`;
}

/** Every admin action, newest first: who, when, what, on what, before and after. */
export function AdminAuditPage() {
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const audit = useQuery(auditQuery(page));
  return (
    <AdminPage title="Audit log" query={audit}>
      {audit.data && (
        <>
          <AdminTable
            caption="Admin actions, newest first"
            captionHidden
            label="Admin actions"
            busy={audit.isPlaceholderData}
            columns={['Time', 'Admin', 'Action', 'Target', 'Change', 'Reason']}
          >
            {audit.data.items.map((entry) => (
              <tr key={entry.id}>
                <th scope="row"><Time iso={entry.at} /></th>
                <td className={styles.wrap}>{entry.actor.email}</td>
                <td className={styles.mono}>{entry.action}</td>
                <td className={styles.mono}>
                  {entry.target.type}:{entry.target.id}
                </td>
                <td className={`${styles.mono} ${styles.wrap}`}>{change(entry.before, entry.after)}</td>
                <td>{entry.reason ?? '—'}</td>
              </tr>
            ))}
          </AdminTable>
          {audit.data.items.length === 0 && <p className={`${styles.muted} ${styles.panel}`}>No admin action yet.</p>}
          <Pager
            page={audit.data.page}
            pageSize={audit.data.pageSize}
            total={audit.data.total}
            onPage={(next) => setParams(next > 1 ? new URLSearchParams({ page: String(next) }) : new URLSearchParams())}
          />
        </>
      )}
    </AdminPage>
  );
}
