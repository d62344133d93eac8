import type { UseQueryResult } from '@tanstack/react-query';
import type { ComponentProps, ReactNode } from 'react';
import { useForm } from 'react-hook-form';
import { adminReasonProblem } from '@keystore/contract/admin-rules';
import { messageOf } from '../../lib/api.ts';
import { byRule } from '../../lib/form-rules.ts';
import { DataTable } from '../../ui/data-table.tsx';
import { Modal } from '../../ui/modal.tsx';
import buttons from '../../ui/buttons.module.css';
import styles from './admin.module.css';

// What every back-office page uses: dates, tables, the busy and failed states, the pager, the confirm dialog.

/** An ISO time as the back office shows it: "2026-11-20 09:05" (UTC, sortable, no ICU data). */
export function formatTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;
}

/** A time in a table or a list: short to read, exact for a machine, never broken over two lines. */
export function Time({ iso }: { iso: string }) {
  return <time dateTime={iso}>{formatTime(iso)}</time>;
}

/** A back-office table: ui/data-table's, its cells set at the top and its times on one line. */
export function AdminTable(props: Omit<ComponentProps<typeof DataTable>, 'className'>) {
  return <DataTable {...props} className={styles.tables} />;
}

/** A day `days` before today (UTC), as YYYY-MM-DD. */
export function dayBefore(days: number, now = new Date()): string {
  return new Date(now.getTime() - days * 86_400_000).toISOString().slice(0, 10);
}

/** A page's heading and, until its data is there, its busy or failed state instead of the content. */
export function AdminPage({ title, query, actions, children }: { title: string; query?: UseQueryResult; actions?: ReactNode; children: ReactNode }) {
  let body = children;
  if (query?.isPending) {
    body = (
      <p className={styles.muted} role="status">
        Loading…
      </p>
    );
  } else if (query?.isError) {
    body = (
      <p className={styles.problem} role="alert">
        {messageOf(query.error, 'Could not load this page. Please try again.')}
      </p>
    );
  }
  return (
    <section className={styles.page} aria-labelledby="admin-page-title">
      <div className={styles.head}>
        <h1 id="admin-page-title" className={styles.title}>
          {title}
        </h1>
        {actions}
      </div>
      {body}
    </section>
  );
}

/** Previous and Next under a table, with where the reader is. */
export function Pager({ page, pageSize, total, onPage }: { page: number; pageSize: number; total: number; onPage: (page: number) => void }) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return (
    <nav className={styles.pager} aria-label="Pages">
      <button type="button" className={`${buttons.secondary} ${buttons.small}`} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        Previous
      </button>
      <span aria-live="polite">
        Page {page} of {pages} · {total} in all
      </span>
      <button type="button" className={`${buttons.secondary} ${buttons.small}`} disabled={page >= pages} onClick={() => onPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

interface ConfirmDialogProps {
  title: string;
  /** What will happen, in a sentence. */
  text: string;
  confirmLabel: string;
  /** Asks for an optional reason (recorded in the timeline and the audit log). */
  withReason?: boolean;
  busy: boolean;
  onConfirm: (reason: string) => void;
  onClose: () => void;
}

/** "Are you sure?" before an action an admin cannot take back, focus kept inside (ui/modal). */
export function ConfirmDialog({ title, text, confirmLabel, withReason = false, busy, onConfirm, onClose }: ConfirmDialogProps) {
  const { register, handleSubmit, formState } = useForm<{ reason: string }>({ defaultValues: { reason: '' } });
  const problem = formState.errors.reason?.message;
  return (
    <Modal title={title} busy={busy} onClose={onClose}>
      <form className={styles.page} onSubmit={handleSubmit(({ reason }) => onConfirm(reason.trim()))} noValidate>
        <p className={styles.muted}>{text}</p>
        {withReason && (
          <div className={styles.field}>
            <label htmlFor="admin-reason">Reason (optional)</label>
            <textarea
              id="admin-reason"
              rows={3}
              {...register('reason', { validate: byRule(adminReasonProblem) })}
              {...(problem ? { 'aria-invalid': true, 'aria-describedby': 'admin-reason-error' } : {})}
            />
            {problem && (
              <span id="admin-reason-error" className={styles.problem} role="alert">
                {problem}
              </span>
            )}
          </div>
        )}
        <div className={buttons.actions}>
          <button type="submit" className={buttons.primary} disabled={busy}>
            {confirmLabel}
          </button>
          <button type="button" className={buttons.secondary} onClick={onClose} disabled={busy}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
