import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Reservation, ReservationState, WebhookType } from '@keystore/contract';
import { messageOf } from '../../lib/api.ts';
import { formatEuro } from '../../lib/money.ts';
import { reservationsQuery } from './api.ts';
import { Pager } from './pager.tsx';
import { formatWhen, When } from './when.tsx';
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
const COLUMNS = 6;

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
        <div className={styles.tableWrap} role="region" aria-label="Reservations" tabIndex={0}>
          <table className={styles.table} aria-busy={reservations.isPlaceholderData}>
            <caption className="visually-hidden">Reservations</caption>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Game</th>
                <th scope="col" className={styles.number}>
                  Keys
                </th>
                <th scope="col" className={styles.number}>
                  Net per key
                </th>
                <th scope="col">State</th>
                <th scope="col">Calls</th>
              </tr>
            </thead>
            <tbody>
              {reservations.data.items.map((reservation) => (
                <ReservationRows key={reservation._id} reservation={reservation} />
              ))}
            </tbody>
          </table>
        </div>
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
        <td className={styles.number}>{reservation.quantity}</td>
        <td className={styles.number}>{formatEuro(reservation.unitNetPrice)}</td>
        <td>
          <span className={styles.badge} data-tone={STATE_TONES[reservation.state]}>
            {STATE_LABELS[reservation.state]}
          </span>
        </td>
        <td>
          <button
            type="button"
            className={`${styles.secondary} ${styles.small} ${styles.nowrap}`}
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
        <td colSpan={COLUMNS} className={styles.details}>
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
