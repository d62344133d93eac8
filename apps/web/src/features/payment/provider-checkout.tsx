import { useNavigate } from 'react-router';
import type { Order } from '@keystore/contract';
import { orderUiMessages } from '@keystore/contract/order-ui-messages';
import { messageOf } from '../../lib/api.ts';
import { openPaymentPage } from '../../lib/checkout.ts';
import { formatEuro } from '../../lib/money.ts';
import { useReopenCheckout } from './api.ts';
import { CancelOrder } from './cancel-order.tsx';
import { OrderLines } from './order-lines.tsx';
import { ReservedUntil } from './reserved-until.tsx';
import styles from './pay-page.module.css';

/**
 * An order awaiting payment on the provider's own page (Stripe Checkout), as the customer finds it in
 * the store: back from that page's Cancel (`cancelled`) it says nothing was charged and the keys are
 * still reserved. 'Try again' returns to the same checkout rather than placing a new order, which
 * would hold the same keys a second time. 'Cancel order' gives the keys back at once instead.
 */
export function ProviderCheckout({ order, token, cancelled }: { order: Order; token?: string; cancelled: boolean }) {
  const navigate = useNavigate();
  const reopenCheckout = useReopenCheckout(token);
  // Still busy once answered: the provider's page is opening.
  const busy = reopenCheckout.isPending || reopenCheckout.isSuccess;
  const problem = reopenCheckout.error ? messageOf(reopenCheckout.error, orderUiMessages.checkoutReopenFailed) : null;

  const reopen = () => {
    reopenCheckout.mutate(order._id, { onSuccess: ({ paymentUrl }) => openPaymentPage(paymentUrl, navigate) });
  };

  return (
    <section className={styles.reopen} aria-labelledby="pay-title">
      <h1 id="pay-title" className={styles.title}>
        {cancelled ? 'Payment cancelled' : 'Payment'}
      </h1>
      <p className={styles.lead}>
        {cancelled ? 'You cancelled the payment, so nothing was charged.' : 'This order is waiting for its payment.'} Your games are
        reserved for you until <ReservedUntil expiresAt={order.expiresAt} />.
      </p>
      <OrderLines lines={order.lines} />
      <p className={styles.total}>
        <span>Total</span>
        <span>{formatEuro(order.amount)}</span>
      </p>
      {problem && (
        <p className={styles.declined} role="alert">
          {problem}
        </p>
      )}
      <button type="button" className={styles.primary} disabled={busy} aria-busy={busy} onClick={reopen}>
        {cancelled ? 'Try again' : 'Continue to payment'}
      </button>
      <CancelOrder order={order} token={token} disabled={busy} />
    </section>
  );
}
