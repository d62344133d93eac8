import { useId, useState } from 'react';
import { Link } from 'react-router';
import { openAuthDialog } from '../../lib/auth-dialog.ts';
import { ApiError } from '../../lib/api.ts';
import { setCartPrices, type CartItem } from '../../lib/cart.ts';
import { useCheckout } from '../../lib/checkout.ts';
import { formatEuro } from '../../lib/money.ts';
import { currentSession } from '../../lib/session.ts';
import { GiftOptionFields, useGiftOption } from '../../ui/gift-option.tsx';
import type { PriceConflict } from '@keystore/contract';
import styles from './cart-page.module.css';

const TERMS_ALERT = 'Please accept the Terms & Conditions';

interface CartSummaryProps {
  items: readonly CartItem[];
  totalItems: number;
  totalPrice: number;
}

/**
 * The order summary: item count, total, 'This is a gift' (issue 29), the terms checkbox and 'Proceed to
 * Checkout'. The button only looks disabled until the terms are accepted (aria-disabled), so pressing it
 * can still say why (SPEC §2); a gift's fields are checked by the contract's rules before anything is
 * sent. A visitor is asked to log in first or to continue as a guest (the cart stays as it is, the gift
 * goes along to the guest form); a customer's order is placed and its payment page opened. The cart is
 * emptied only once the payment succeeds, so a declined card loses nothing.
 */
export function CartSummary({ items, totalItems, totalPrice }: CartSummaryProps) {
  const [accepted, setAccepted] = useState(false);
  const { busy, problem, checkout } = useCheckout();
  const giftOption = useGiftOption();
  const termsId = useId();

  const proceed = async () => {
    if (!accepted) {
      window.alert(TERMS_ALERT);
      return;
    }
    if (busy) return;
    const gift = await giftOption.giftToSend();
    if (gift === null) return;
    // Each line with the offer chosen and the price shown: when the offers now cost more, the server
    // answers 409 with the new prices, which the lines take on while the error says why.
    const lines = items.map((item) => ({ gameId: item.game._id, quantity: item.quantity, offerId: item.offerId, expectedPrice: item.game.price }));
    const onError = (error: unknown) => {
      const prices = newPricesOf(error);
      if (prices) setCartPrices(prices);
    };
    // A visitor logs in first, or goes on as a guest with these lines (the login dialog offers both).
    if (currentSession().status !== 'signed-in') {
      openAuthDialog('login', { checkout: { items: lines, gift, onError } });
      return;
    }
    checkout(lines, onError, gift);
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
      <GiftOptionFields option={giftOption} />
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
      <button type="button" className={styles.checkout} aria-disabled={!accepted || busy} aria-busy={busy} onClick={() => void proceed()}>
        {busy ? 'Placing your order…' : 'Proceed to Checkout'}
      </button>
      <p className={styles.note}>You will be redirected to the payment page.</p>
    </aside>
  );
}

/** The new unit prices of a 409 of POST /api/orders, when the offers cost more than the cart showed. */
function newPricesOf(error: unknown): NonNullable<PriceConflict['prices']> | undefined {
  if (!(error instanceof ApiError) || error.status !== 409) return undefined;
  const { body } = error;
  if (typeof body !== 'object' || body === null || !('prices' in body) || !Array.isArray(body.prices)) return undefined;
  return body.prices.filter(
    (entry): entry is { gameId: string; price: number } => typeof entry?.gameId === 'string' && Number.isFinite(entry?.price),
  );
}
