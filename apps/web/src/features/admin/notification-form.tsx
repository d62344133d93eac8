import { useForm } from 'react-hook-form';
import { NOTIFICATION_TEXT_MAX, NOTIFICATION_TITLE_MAX, notificationTextProblem, notificationTitleProblem } from '@keystore/contract/notification-rules';
import { messageOf } from '../../lib/api.ts';
import { byRule } from '../../lib/form-rules.ts';
import { showToast } from '../../ui/toasts.tsx';
import { usePublishNotification } from './api.ts';
import buttons from '../../ui/buttons.module.css';
import styles from './admin.module.css';

interface Fields {
  title: string;
  text: string;
}

/** A public notification to every shopper (the bell), for news that is not an article: a delay, an outage. */
export function NotificationForm() {
  const publish = usePublishNotification();
  const { register, handleSubmit, formState, reset } = useForm<Fields>({ defaultValues: { title: '', text: '' } });
  const { errors } = formState;
  const send = handleSubmit(async ({ title, text }) => {
    try {
      await publish.mutateAsync({ title: title.trim(), text: text.trim() });
      showToast('The notification was sent to every shopper.');
      reset();
    } catch (error) {
      showToast(messageOf(error, 'The notification was not sent. Please try again.'), 'error');
    }
  });
  const field = (name: keyof Fields, label: string, max: number, rule: (value: string) => string | undefined, rows?: number) => {
    const id = `notification-${name}`;
    const problem = errors[name]?.message;
    const props = { id, maxLength: max, ...register(name, { validate: byRule(rule) }), ...(problem ? { 'aria-invalid': true, 'aria-describedby': `${id}-error` } : {}) };
    return (
      <div className={styles.field}>
        <label htmlFor={id}>{label}</label>
        {rows ? <textarea rows={rows} {...props} /> : <input {...props} />}
        {problem && (
          <span id={`${id}-error`} className={styles.problem} role="alert">
            {problem}
          </span>
        )}
      </div>
    );
  };
  return (
    <form className={styles.panel} onSubmit={send} noValidate aria-labelledby="notification-title-heading">
      <h2 id="notification-title-heading" className={styles.subtitle}>
        Notify every shopper
      </h2>
      {field('title', 'Title', NOTIFICATION_TITLE_MAX, notificationTitleProblem)}
      {field('text', 'Text', NOTIFICATION_TEXT_MAX, notificationTextProblem, 3)}
      <div className={buttons.actions}>
        <button type="submit" className={buttons.primary} disabled={formState.isSubmitting}>
          Send notification
        </button>
      </div>
    </form>
  );
}
