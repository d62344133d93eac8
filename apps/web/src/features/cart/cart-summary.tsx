import { useId, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { formatEuro } from '../../lib/money.ts';
import styles from './cart-page.module.css';

const TERMS_ALERT = 'Please accept the Terms & Conditions';

/**
 * The order summary: item count, total, the terms checkbox and 'Proceed to Checkout'. The button only
 * looks disabled until the terms are accepted (aria-disabled), so pressing it can still say why (SPEC §2).
 */
export function CartSummary({ totalItems, totalPrice }: { totalItems: number; totalPrice: number }) {
  const [accepted, setAccepted] = useState(false);
  const navigate = useNavigate();
  const termsId = useId();

  const proceed = () => {
    if (!accepted) {
      window.alert(TERMS_ALERT);
      return;
    }
    void navigate('/checkout');
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
      <button type="button" className={styles.checkout} aria-disabled={!accepted} onClick={proceed}>
        Proceed to Checkout
      </button>
      <p className={styles.note}>You will be redirected to the payment page.</p>
    </aside>
  );
}
