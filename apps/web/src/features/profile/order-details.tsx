import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import type { Order, PurchaseHistoryEntry } from '@keystore/contract';
import { orderUiMessages } from '@keystore/contract/order-ui-messages';
import { messageOf } from '../../lib/api.ts';
import { formatEuro } from '../../lib/money.ts';
import { orderQuery } from '../../lib/orders.ts';
import { Modal } from '../../ui/modal.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import styles from './order-details.module.css';

const when = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/**
 * One order of the history, fetched in full (GET /api/orders/{id}): its lines, payment and delivery
 * status, amount, the library for its keys, and 'Pay now' while it still awaits payment.
 */
export function OrderDetails({ entry, onClose }: { entry: PurchaseHistoryEntry; onClose: () => void }) {
  const { data: order, error } = useQuery(orderQuery(entry._id));

  return (
    <Modal title="Order details" onClose={onClose}>
      {error ? (
        <p role="alert">{messageOf(error, orderUiMessages.orderLoadFailed)}</p>
      ) : !order ? (
        <Spinner label="Loading the order" />
      ) : (
        <OrderView order={order} onClose={onClose} />
      )}
    </Modal>
  );
}

function OrderView({ order, onClose }: { order: Order; onClose: () => void }) {
  // The time the view opened: whether the order can still be paid is judged once, not on every render.
  const [openedAt] = useState(() => Date.now());
  const payable = order.status === 'Awaiting payment' && Date.parse(order.expiresAt) > openedAt;
  return (
    <div className={styles.view}>
      <ul className={styles.lines} aria-label="Products in this order">
        {order.lines.map((line) => (
          <li key={line.gameId} className={styles.line}>
            <span className={styles.lineTitle}>
              {line.title} <span className={styles.muted}>({line.platform})</span>
            </span>
            <span>
              {line.quantity} × {formatEuro(line.unitPrice)}
            </span>
          </li>
        ))}
      </ul>
      <dl className={styles.facts}>
        <div>
          <dt>Placed</dt>
          <dd>{when.format(new Date(order.createdAt))}</dd>
        </div>
        <div>
          <dt>Payment</dt>
          <dd>{order.status}</dd>
        </div>
        <div>
          <dt>Delivery</dt>
          <dd>{order.deliveryStatus === 'Delivered' ? 'Delivered' : 'Not delivered'}</dd>
        </div>
        <div>
          <dt>Amount</dt>
          <dd>{formatEuro(order.amount)}</dd>
        </div>
      </dl>
      {(order.statusNote ?? order.declineReason) && <p className={styles.muted}>{order.statusNote ?? order.declineReason}</p>}
      <div className={styles.actions}>
        {payable && (
          <Link to={`/pay/${encodeURIComponent(order._id)}`} className={styles.primary} onClick={onClose}>
            Pay now
          </Link>
        )}
        {order.status === 'Paid' && (
          <Link to="/library" className={styles.secondary} onClick={onClose}>
            Your keys are in the Library
          </Link>
        )}
      </div>
    </div>
  );
}
