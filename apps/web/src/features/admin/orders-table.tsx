import { Link } from 'react-router';
import { formatEuro } from '../../lib/money.ts';
import { Time } from './admin-ui.tsx';
import styles from './admin.module.css';

/** One order as the back office's order tables show it (the orders page, a customer's page). */
export interface OrderRow {
  _id: string;
  /** When it was placed (ISO). */
  at: string;
  /** Who bought it; left out where the table is one customer's. */
  buyer?: string;
  items: string;
  status: string;
  deliveryStatus: string;
  amount: number;
}

interface OrdersTableProps {
  caption: string;
  /** Whether the caption is for screen readers only (a heading above already says it). */
  captionHidden?: boolean;
  rows: OrderRow[];
  withBuyer: boolean;
  busy?: boolean;
}

/** A table of orders, newest first, each linking to its page. */
export function OrdersTable({ caption, captionHidden = false, rows, withBuyer, busy = false }: OrdersTableProps) {
  return (
    <table className={styles.table} aria-busy={busy}>
      <caption className={captionHidden ? 'visually-hidden' : undefined}>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Order</th>
          <th scope="col">Placed</th>
          {withBuyer && <th scope="col">Buyer</th>}
          <th scope="col">Items</th>
          <th scope="col">Status</th>
          <th scope="col">Delivery</th>
          <th scope="col" className={styles.number}>
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        {rows.map((order) => (
          <tr key={order._id}>
            <th scope="row">
              <Link to={`/admin/orders/${order._id}`} className={`${styles.link} ${styles.mono}`}>
                {order._id}
              </Link>
            </th>
            <td>
              <Time iso={order.at} />
            </td>
            {withBuyer && <td>{order.buyer ?? '—'}</td>}
            <td>{order.items}</td>
            <td>
              <span className={styles.badge}>{order.status}</span>
            </td>
            <td>
              <span className={styles.badge} data-tone={order.deliveryStatus === 'Not delivered' ? 'bad' : undefined}>
                {order.deliveryStatus}
              </span>
            </td>
            <td className={styles.number}>{formatEuro(order.amount)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
