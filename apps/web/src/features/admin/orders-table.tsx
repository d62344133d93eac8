import { Link } from 'react-router';
import { formatEuro } from '../../lib/money.ts';
import type { Column } from '../../ui/data-table.tsx';
import { AdminTable, Time } from './admin-ui.tsx';
import dataTable from '../../ui/data-table.module.css';
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
  /** The scrolling region's name; the caption by default. */
  label?: string;
  /** Whether the caption is for screen readers only (a heading above already says it). */
  captionHidden?: boolean;
  rows: OrderRow[];
  withBuyer: boolean;
  busy?: boolean;
}

/** A table of orders, newest first, each linking to its page, in its scrolling box. */
export function OrdersTable({ caption, captionHidden = false, label, rows, withBuyer, busy = false }: OrdersTableProps) {
  const columns: Column[] = ['Order', 'Placed', ...(withBuyer ? ['Buyer'] : []), 'Items', 'Status', 'Delivery', { label: 'Amount', numeric: true }];
  return (
    <AdminTable caption={caption} captionHidden={captionHidden} label={label} columns={columns} busy={busy}>
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
          <td className={dataTable.number}>{formatEuro(order.amount)}</td>
        </tr>
      ))}
    </AdminTable>
  );
}
