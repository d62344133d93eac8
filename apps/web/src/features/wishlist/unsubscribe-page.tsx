import { useMutation } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { messageOf } from '../../lib/api.ts';
import { unsubscribe } from './api.ts';
import styles from './wishlist-page.module.css';

/**
 * The page an alert mail's footer opens: one button turns alert e-mails off. A button, not a request
 * made on load, so a mail scanner following the link changes nothing (mail clients use the one-click
 * header, RFC 8058).
 */
export function UnsubscribePage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const done = useMutation({ mutationFn: () => unsubscribe(token) });
  return (
    <section className={styles.page} aria-labelledby="unsubscribe-title">
      <h1 id="unsubscribe-title" className={styles.title}>
        Alert e-mails
      </h1>
      {done.isSuccess ? (
        <p role="status">{done.data.message}</p>
      ) : (
        <>
          <p>Stop the e-mails that tell you when a game on your wishlist drops in price or is back in stock? The bell on the site keeps telling you.</p>
          <button type="button" className={styles.continue} disabled={done.isPending} onClick={() => done.mutate()}>
            Stop alert e-mails
          </button>
          {done.isError && <p role="alert">{messageOf(done.error, 'That did not work. Try again in a moment.')}</p>}
        </>
      )}
    </section>
  );
}
