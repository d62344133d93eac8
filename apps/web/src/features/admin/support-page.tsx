import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import type { AdminSupportMessage, SupportStatus } from '@keystore/contract';
import { adminMessages, SUPPORT_REPLY_MAX, SUPPORT_STATUSES, supportReplyProblem } from '@keystore/contract/admin-rules';
import { messageOf } from '../../lib/api.ts';
import { byRule } from '../../lib/form-rules.ts';
import { showToast } from '../../ui/toasts.tsx';
import { AdminPage, formatTime, Pager, Time } from './admin-ui.tsx';
import { supportQuery, useReplySupport } from './api.ts';
import { NotificationForm } from './notification-form.tsx';
import buttons from '../../ui/buttons.module.css';
import styles from './admin.module.css';

const isStatus = (value: string | null): value is SupportStatus => SUPPORT_STATUSES.some((status) => status === value);

/**
 * The support form's messages, newest first, open or answered, each open one with its reply form;
 * above them, a notification to every shopper (the existing POST /api/admin/notifications).
 */
export function AdminSupportPage() {
  const [params, setParams] = useSearchParams();
  const wanted = params.get('status');
  const status = isStatus(wanted) ? wanted : undefined;
  const page = Math.max(1, Number(params.get('page')) || 1);
  const inbox = useQuery(supportQuery(status, page));
  const show = (nextStatus: SupportStatus | undefined, nextPage: number) => {
    const search = new URLSearchParams();
    if (nextStatus) search.set('status', nextStatus);
    if (nextPage > 1) search.set('page', String(nextPage));
    setParams(search);
  };

  const filter = (
    <div className={styles.field}>
      <label htmlFor="support-status">Show</label>
      <select id="support-status" value={status ?? ''} onChange={(event) => show(isStatus(event.target.value) ? event.target.value : undefined, 1)}>
        <option value="">All</option>
        {SUPPORT_STATUSES.map((option) => (
          <option key={option} value={option}>
            {option === 'open' ? 'Open' : 'Answered'}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <AdminPage title="Support inbox" actions={filter}>
      <NotificationForm />
      {inbox.isPending && (
        <p className={styles.muted} role="status">
          Loading…
        </p>
      )}
      {inbox.isError && (
        <p className={styles.problem} role="alert">
          {messageOf(inbox.error, 'Could not load the messages. Please try again.')}
        </p>
      )}
      {inbox.data && (
        <>
          {inbox.data.items.length === 0 && <p className={styles.muted}>No messages here.</p>}
          {inbox.data.items.map((message) => (
            <SupportMessage key={message._id} message={message} />
          ))}
          <Pager page={inbox.data.page} pageSize={inbox.data.pageSize} total={inbox.data.total} onPage={(next) => show(status, next)} />
        </>
      )}
    </AdminPage>
  );
}

function SupportMessage({ message }: { message: AdminSupportMessage }) {
  const reply = useReplySupport();
  const { register, handleSubmit, formState, reset } = useForm<{ reply: string }>({ defaultValues: { reply: '' } });
  const problem = formState.errors.reply?.message;
  const fieldId = `reply-${message._id}`;
  const send = handleSubmit(async (fields) => {
    try {
      const answer = await reply.mutateAsync({ id: message._id, reply: fields.reply.trim() });
      showToast(answer.message || adminMessages.replied);
      reset();
    } catch (error) {
      showToast(messageOf(error, 'The reply was not sent. Please try again.'), 'error');
    }
  });
  return (
    <article className={styles.panel} aria-labelledby={`support-${message._id}`}>
      <div className={styles.head}>
        <h2 id={`support-${message._id}`} className={styles.subtitle}>
          {message.title}
        </h2>
        <span className={styles.badge} data-tone={message.status === 'open' ? 'bad' : 'good'}>
          {message.status === 'open' ? 'Open' : 'Answered'}
        </span>
      </div>
      <p className={styles.muted}>
        {message.name} · {message.email} · <Time iso={message.createdAt} />
      </p>
      <p className={styles.message}>{message.message}</p>
      {message.reply !== null ? (
        <div>
          <h3 className={styles.label}>Reply{message.answeredAt ? ` · ${formatTime(message.answeredAt)}` : ''}</h3>
          <p className={styles.message}>{message.reply}</p>
        </div>
      ) : (
        <form className={styles.page} onSubmit={send} noValidate>
          <div className={styles.field}>
            <label htmlFor={fieldId}>Reply</label>
            <textarea
              id={fieldId}
              rows={4}
              maxLength={SUPPORT_REPLY_MAX}
              {...register('reply', { validate: byRule(supportReplyProblem) })}
              {...(problem ? { 'aria-invalid': true, 'aria-describedby': `${fieldId}-error` } : {})}
            />
            {problem && (
              <span id={`${fieldId}-error`} className={styles.problem} role="alert">
                {problem}
              </span>
            )}
          </div>
          <div className={buttons.actions}>
            <button type="submit" className={buttons.primary} disabled={formState.isSubmitting}>
              Send reply
            </button>
          </div>
        </form>
      )}
    </article>
  );
}
