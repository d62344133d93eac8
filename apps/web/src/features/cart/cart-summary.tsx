import { useId, useState } from 'react';
import { Link } from 'react-router';
import { openAuthDialog } from '../../lib/auth-dialog.ts';
import type { CartItem } from '../../lib/cart.ts';
import { useCheckout } from '../../lib/checkout.ts';
import { formatEuro } from '../../lib/money.ts';
import { currentSession } from '../../lib/session.ts';
import styles from './cart-page.module.css';

const TERMS_ALERT = 'Please accept the Terms & Conditions';

interface CartSummaryProps {
  items: readonly CartItem[];
  totalItems: number;
  totalPrice: number;
}

/**
 * The order summary: item count, total, the terms checkbox and 'Proceed to Checkout'. The button only
 * looks disabled until the terms are accepted (aria-disabled), so pressing it can still say why (SPEC §2).
 * A visitor is asked to log in first (the cart stays as it is); a customer's order is placed and its
 * payment page opened. The cart is emptied only once the payment succeeds, so a declined card loses nothing.
 */
export function CartSummary({ items, totalItems, totalPrice }: CartSummaryProps) {
  const [accepted, setAccepted] = useState(false);
  const { busy, problem, checkout } = useCheckout();
  const termsId = useId();

  const proceed = () => {
    if (!accepted) {
      window.alert(TERMS_ALERT);
      return;
    }
    if (busy) return;
    if (currentSession().status !== 'signed-in') {
      openAuthDialog('login');
      return;
    }
    checkout(items.map((item) => ({ gameId: item.game._id, quantity: item.quantity })));
  };

  return (
    <aside className={styles.summary} aria-labelledby={`${termsId}-title`}>
      <h2 id={`${termsId}-title`} className={styles.summaryTitle}>
        Order summary
      </h2>
      <dl className={styles.totals}>
        <div className={styles.row}>
          <dt>Items</dt>
          <dd>{totalItems}</dd>
        </div>
        <div className={`${styles.row} ${styles.total}`}>
          <dt>Total</dt>
          <dd>{formatEuro(totalPrice)}</dd>
        </div>
      </dl>
      <div className={styles.terms}>
        <input id={termsId} type="checkbox" className={styles.checkbox} checked={accepted} onChange={(event) => setAccepted(event.target.checked)} />
        <label htmlFor={termsId}>
          I have read and accept the <Link to="/terms">Terms &amp; Conditions</Link>
        </label>
      </div>
      {problem && (
        <p className={styles.problem} role="alert">
          {problem}
        </p>
      )}
      <button type="button" className={styles.checkout} aria-disabled={!accepted || busy} aria-busy={busy} onClick={proceed}>
        {busy ? 'Placing your order…' : 'Proceed to Checkout'}
      </button>
      <p className={styles.note}>You will be redirected to the payment page.</p>
    </aside>
  );
}
