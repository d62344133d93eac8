import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Reservation, ReservationState, WebhookType } from '@keystore/contract';
import { messageOf } from '../../lib/api.ts';
import { formatEuro } from '../../lib/money.ts';
import { DataTable, type Column } from '../../ui/data-table.tsx';
import { reservationsQuery } from './api.ts';
import { Pager } from './pager.tsx';
import { formatWhen, When } from './when.tsx';
import buttons from '../../ui/buttons.module.css';
import dataTable from '../../ui/data-table.module.css';
import styles from './seller.module.css';

const STATE_LABELS: Record<ReservationState, string> = {
  requested: 'Requested',
  reserved: 'Reserved',
  provided: 'Keys handed over',
  delivered: 'Delivered',
  cancelled: 'Cancelled',
  expired: 'Expired',
  failed: 'Failed',
};
const STATE_TONES: Partial<Record<ReservationState, 'good' | 'bad'>> = { delivered: 'good', failed: 'bad' };
const CALL_LABELS: Record<WebhookType, string> = { reserve: 'Reserve', provide: 'Provide', cancel: 'Cancel', ping: 'Ping' };
const COLUMNS: Column[] = ['Date', 'Game', { label: 'Keys', numeric: true }, { label: 'Net per key', numeric: true }, 'State', 'Calls'];

/**
 * The reservations the store made with the seller's endpoint for declared stock (issue 24), newest first:
 * each with its state, and on demand every call to the endpoint (type, HTTP status or error, time taken)
 * and every change of state, so a seller can debug its integration without writing to support.
 */
export function ReservationsSection() {
  const [page, setPage] = useState(1);
  const reservations = useQuery(reservationsQuery(page));
  let body;
  if (reservations.isPending) {
    body = (
      <p className={styles.muted} role="status">
        Loading…
      </p>
    );
  } else if (reservations.isError) {
    body = (
      <p className={styles.problem} role="alert">
        {messageOf(reservations.error, 'Could not load your reservations. Please try again.')}
      </p>
    );
  } else if (reservations.data.items.length === 0) {
    body = <p className={styles.muted}>No reservations yet: they come with the first order of an offer with declared stock.</p>;
  } else {
    body = (
      <>
        <DataTable caption="Reservations" captionHidden columns={COLUMNS} busy={reservations.isPlaceholderData} className={styles.tableWrap}>
          {reservations.data.items.map((reservation) => (
            <ReservationRows key={reservation._id} reservation={reservation} />
          ))}
        </DataTable>
        <Pager {...reservations.data} onPage={setPage} label="Pages of reservations" />
      </>
    );
  }
  return (
    <>
      <h2 className={styles.subtitle}>Reservations</h2>
      <p className={styles.note}>
        An order of a declared-stock offer reserves keys at your endpoint; once paid, the store asks it for them. Open a reservation’s calls to see what your endpoint
        answered.
      </p>
      {body}
    </>
  );
}

/** A reservation's row, and the row below it with its calls and changes, shown when asked for. */
function ReservationRows({ reservation }: { reservation: Reservation }) {
  const [open, setOpen] = useState(false);
  const detailsId = `reservation-${reservation._id}`;
  const calls = reservation.attempts.length;
  return (
    <>
      <tr>
        <td>
          <When iso={reservation.createdAt} />
        </td>
        <th scope="row">{reservation.title}</th>
        <td className={dataTable.number}>{reservation.quantity}</td>
        <td className={dataTable.number}>{formatEuro(reservation.unitNetPrice)}</td>
        <td>
          <span className={styles.badge} data-tone={STATE_TONES[reservation.state]}>
            {STATE_LABELS[reservation.state]}
          </span>
        </td>
        <td>
          <button
            type="button"
            className={`${buttons.secondary} ${buttons.small} ${styles.nowrap}`}
            aria-expanded={open}
            aria-controls={detailsId}
            onClick={() => setOpen(!open)}
          >
            {open ? 'Hide' : 'Show'} {calls === 0 ? 'changes' : `${calls} call${calls === 1 ? '' : 's'}`}{' '}
            <span className="visually-hidden">
              of {reservation.title}, {formatWhen(reservation.createdAt)}
            </span>
          </button>
        </td>
      </tr>
      <tr id={detailsId} hidden={!open}>
        <td colSpan={COLUMNS.length} className={styles.details}>
          <div className={styles.detailsInner}>
            <div className={styles.detailColumns}>
              <section aria-label={`Calls to your endpoint for ${reservation.title}`}>
                <h3 className={styles.detailTitle}>Calls to your endpoint</h3>
                {calls === 0 ? (
                  <p className={styles.note}>None yet.</p>
                ) : (
                  <ol className={styles.events}>
                    {reservation.attempts.map((attempt, index) => (
                      <li key={`${attempt.at}-${index}`}>
                        <When iso={attempt.at} format="moment" /> · <strong>{CALL_LABELS[attempt.type]}</strong> ·{' '}
                        <span data-tone={attempt.status !== null && attempt.status < 300 ? 'good' : 'bad'} className={styles.outcome}>
                          {attempt.status === null ? 'no answer' : `HTTP ${attempt.status}`}
                        </span>{' '}
                        · {attempt.durationMs} ms
                        {attempt.error && <span className={styles.eventReason}>{attempt.error}</span>}
                      </li>
                    ))}
                  </ol>
                )}
              </section>
              <section aria-label={`Changes of the reservation of ${reservation.title}`}>
                <h3 className={styles.detailTitle}>Changes</h3>
                <ol className={styles.events}>
                  {reservation.moves.map((move, index) => (
                    <li key={`${move.at}-${index}`}>
                      <When iso={move.at} format="moment" /> · {move.from ? `${STATE_LABELS[move.from]} → ` : ''}
                      <strong>{STATE_LABELS[move.to]}</strong>
                      {move.reason && <span className={styles.eventReason}>{move.reason}</span>}
                    </li>
                  ))}
                </ol>
              </section>
            </div>
            <p className={`${styles.note} ${styles.mono}`}>
              Reservation {reservation._id} · order {reservation.orderId}
            </p>
          </div>
        </td>
      </tr>
    </>
  );
}
