import { Link } from 'react-router';
import type { Order } from '@keystore/contract';
import { orderMessages as m } from '@keystore/contract/messages';
import { withOrderToken } from '../../lib/orders.ts';
import styles from './pay-page.module.css';

/** Why an order cannot be paid any more, from the contract's wording. */
function closedMessage(order: Order, expired: boolean): string {
  // In review or disputed: the server says what it means.
  if (order.statusNote) return order.statusNote;
  if (expired || order.status === 'Expired') return m.orderExpired;
  if (order.status === 'Paid') return m.orderAlreadyPaid;
  if (order.status === 'Refunded') return m.orderRefunded;
  if (order.status === 'Cancelled') return m.orderCancelled;
  return m.orderDeclined;
}

/**
 * An order that cannot be paid (paid, declined, lapsed, or not found): what happened, and the way on —
 * the library for a paid order (a guest's order page, with its `token`), the store otherwise.
 */
export function ClosedOrder({ order, token, expired = false, message }: { order?: Order; token?: string; expired?: boolean; message?: string }) {
  const paid = order?.status === 'Paid' || order?.status === 'In review';
  return (
    <section className={styles.closed} aria-labelledby="pay-title">
      <h1 id="pay-title" className={styles.title}>
        Payment
      </h1>
      <p role="alert">{message ?? closedMessage(order!, expired)}</p>
      {order && paid && token ? (
        <Link to={withOrderToken(`/orders/${encodeURIComponent(order._id)}`, token)} className={styles.primary}>
          Go to your order
        </Link>
      ) : order && paid ? (
        <Link to={`/library?order=${encodeURIComponent(order._id)}`} className={styles.primary}>
          Go to Library
        </Link>
      ) : (
        <Link to="/store" className={styles.primary}>
          Back to Store
        </Link>
      )}
    </section>
  );
}
