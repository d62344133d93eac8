import type { PurchaseHistoryEntry } from '@keystore/contract';
import styles from './order-history.module.css';

interface OrderHistoryProps {
  entries: readonly PurchaseHistoryEntry[];
  /** Opens an order's detail view; without it no Details button shows. */
  onDetails?: (entry: PurchaseHistoryEntry) => void;
}

const STATUS_STYLE: Record<string, string | undefined> = {
  Paid: styles.paid,
  'Awaiting payment': styles.awaiting,
  Declined: styles.declined,
};

const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric' });

function formatDate(value: string): string {
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : day.format(date);
}

/** An amount in the order's own currency, with two decimals. */
function formatAmount(amount: number, currency: string): string {
  try {
    return new Intl.NumberFormat('en-IE', { style: 'currency', currency, minimumFractionDigits: 2 }).format(amount);
  } catch {
    return `${currency} ${amount.toFixed(2)}`;
  }
}

/** The order history block (SPEC §2 Profile, §4 Orders), newest first as the server sends it. */
export function OrderHistory({ entries, onDetails }: OrderHistoryProps) {
  return (
    <section className={styles.block} aria-labelledby="orders-title">
      <h2 id="orders-title" className={styles.title}>
        Order history
      </h2>
      {entries.length === 0 ? (
        <p className={styles.empty}>Start your trial right now!</p>
      ) : (
        <ul className={styles.list}>
          {entries.map((entry) => (
            <li key={entry._id} className={styles.entry}>
              <img src={entry.image} alt="" width={56} height={72} className={styles.image} loading="lazy" />
              <div className={styles.info}>
                <p className={styles.items}>{entry.items}</p>
                <p className={styles.meta}>
                  <time dateTime={entry.date}>{formatDate(entry.date)}</time>
                  <span className={`${styles.badge} ${STATUS_STYLE[entry.status] ?? ''}`}>{entry.status}</span>
                  <span className={entry.deliveryStatus === 'Delivered' ? styles.delivered : styles.pending}>
                    {entry.deliveryStatus === 'Delivered' ? 'Delivered' : 'Not delivered'}
                  </span>
                </p>
              </div>
              <p className={styles.amount}>{formatAmount(entry.amount, entry.currency)}</p>
              {onDetails && (
                <button type="button" className={styles.details} onClick={() => onDetails(entry)} aria-label={`Details of the order of ${formatDate(entry.date)}: ${entry.items}`}>
                  Details
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
