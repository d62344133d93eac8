import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { OrderEvent, OrderRisk } from '@keystore/contract';
import { adminMessages } from '@keystore/contract/admin-rules';
import { messageOf } from '../../lib/api.ts';
import { formatEuro } from '../../lib/money.ts';
import { showToast } from '../../ui/toasts.tsx';
import { AdminPage, ConfirmDialog, AdminTable, Time } from './admin-ui.tsx';
import { orderQuery, useOrderAction, type OrderAction } from './api.ts';
import buttons from '../../ui/buttons.module.css';
import dataTable from '../../ui/data-table.module.css';
import styles from './admin.module.css';

const ACTIONS: Record<OrderAction, { label: string; text: string; done: string }> = {
  refund: { label: 'Refund', text: 'The buyer gets the amount back and the order’s keys leave their library.', done: 'The order was refunded.' },
  resend: { label: 'Resend keys', text: 'The receipt with the keys goes to the buyer’s address again.', done: adminMessages.resent },
  'retry-delivery': { label: 'Retry delivery', text: 'The keys not delivered yet are asked from the supplier again.', done: adminMessages.retryStarted },
  approve: { label: 'Approve', text: 'The payment is captured and the keys go to the buyer at once.', done: 'The order was approved: its keys are on their way.' },
  cancel: { label: 'Cancel order', text: 'The hold on the payment is released (nothing is charged) and the keys go back on the shelf.', done: 'The order was cancelled and its hold released.' },
};

/** What an order in review can be done with, and what any other order can. */
const REVIEW_ACTIONS: OrderAction[] = ['approve', 'cancel'];
const SUPPORT_ACTIONS: OrderAction[] = ['refund', 'resend', 'retry-delivery'];

/** One order for support: lines, buyer, payment, masked keys, its timeline, and the actions. */
export function AdminOrderPage() {
  const { id = '' } = useParams();
  const query = useQuery(orderQuery(id));
  const act = useOrderAction(id);
  const [asking, setAsking] = useState<OrderAction | null>(null);

  const run = (action: OrderAction, reason: string) =>
    act.mutate(
      { action, reason: reason || undefined },
      {
        // The refund answers the order, the others a message: a toast says what happened either way.
        onSuccess: (answer) => showToast('message' in answer ? answer.message : ACTIONS[action].done),
        onError: (error) => showToast(messageOf(error, 'The action failed. Please try again.'), 'error'),
        onSettled: () => setAsking(null),
      },
    );

  const data = query.data;
  const actions = (
    <div className={buttons.actions}>
      {(data?.order.status === 'In review' ? REVIEW_ACTIONS : SUPPORT_ACTIONS).map((action) => (
        <button
          key={action}
          type="button"
          className={action === 'refund' || action === 'cancel' ? buttons.danger : action === 'approve' ? buttons.primary : buttons.secondary}
          onClick={() => setAsking(action)}
          disabled={!data}
        >
          {ACTIONS[action].label}
        </button>
      ))}
    </div>
  );
  return (
    <AdminPage title={`Order ${id}`} query={query} actions={actions}>
      {data && (
        <>
          <div className={styles.grid}>
            <section className={styles.panel} aria-labelledby="order-facts">
              <h2 id="order-facts" className={styles.subtitle}>
                Order
              </h2>
              <dl className={styles.facts}>
                <dt>Status</dt>
                <dd>{data.order.status}</dd>
                <dt>Delivery</dt>
                <dd>{data.order.deliveryStatus}</dd>
                <dt>Placed</dt>
                <dd><Time iso={data.order.createdAt} /></dd>
                <dt>Amount</dt>
                <dd>{formatEuro(data.order.amount)}</dd>
                <dt>Buyer</dt>
                <dd>
                  {data.buyer.id ? (
                    <Link to={`/admin/users/${data.buyer.id}`} className={styles.link}>
                      {data.buyer.email ?? data.buyer.username}
                    </Link>
                  ) : (
                    (data.buyer.email ?? 'Deleted account')
                  )}
                </dd>
                <dt>Payment</dt>
                <dd>
                  {data.payment.provider}
                  {data.payment.reference && <span className={styles.mono}> · {data.payment.reference}</span>}
                </dd>
                {data.order.declineReason && (
                  <>
                    <dt>Declined</dt>
                    <dd>{data.order.declineReason}</dd>
                  </>
                )}
              </dl>
            </section>
            <section className={styles.panel} aria-labelledby="order-keys">
              <h2 id="order-keys" className={styles.subtitle}>
                Keys
              </h2>
              {data.keys.length === 0 ? (
                <p className={styles.muted}>No keys delivered.</p>
              ) : (
                <AdminTable caption="Keys" captionHidden columns={['Game', 'Key', 'Revealed']}>
                  {data.keys.map((key) => (
                    <tr key={`${key.gameId}-${key.masked}`}>
                      <th scope="row">{key.title}</th>
                      <td className={styles.mono} aria-label={`Key ending ${key.masked.slice(-4)}`}>
                        {key.masked}
                      </td>
                      <td>{key.revealed ? 'Yes' : 'No'}</td>
                    </tr>
                  ))}
                </AdminTable>
              )}
            </section>
          </div>
          {data.risk && <RiskPanel risk={data.risk} />}
          <AdminTable
            caption="Lines"
            columns={[
              'Game',
              'Platform',
              'Seller',
              { label: 'Quantity', numeric: true },
              { label: 'Unit price', numeric: true },
              { label: 'Keys delivered', numeric: true },
              { label: 'Amount', numeric: true },
            ]}
          >
            {data.order.lines.map((line) => (
              // A game may be two lines of one order, from two sellers' offers.
              <tr key={`${line.gameId}:${line.offerId}`}>
                <th scope="row">{line.title}</th>
                <td>{line.platform}</td>
                <td>{line.seller}</td>
                <td className={dataTable.number}>{line.quantity}</td>
                <td className={dataTable.number}>{formatEuro(line.unitPrice)}</td>
                <td className={dataTable.number}>{line.keysDelivered}</td>
                <td className={dataTable.number}>{formatEuro(line.amount)}</td>
              </tr>
            ))}
          </AdminTable>
          <AdminTable caption="Timeline" columns={['Time', 'Change', 'By', 'Reason', 'Request']}>
            {data.timeline.map((event, n) => (
              <tr key={`${event.at}-${n}`}>
                <th scope="row"><Time iso={event.at} /></th>
                <td>
                  <TimelineChange event={event} />
                </td>
                <td className={styles.mono}>{event.actor}</td>
                <td>{event.reason ?? '—'}</td>
                {/* The x-request-id of the call that made the step: what to search the logs for. */}
                <td className={`${styles.mono} ${styles.requestId}`}>{event.requestId ?? '—'}</td>
              </tr>
            ))}
          </AdminTable>
        </>
      )}
      {asking && (
        <ConfirmDialog
          title={`${ACTIONS[asking].label}?`}
          text={ACTIONS[asking].text}
          confirmLabel={ACTIONS[asking].label}
          withReason
          busy={act.isPending}
          onConfirm={(reason) => run(asking, reason)}
          onClose={() => setAsking(null)}
        />
      )}
    </AdminPage>
  );
}

/** The risk desk's assessment of the order's payment: score, decision, the facts behind it, and the decision on a hold. */
function RiskPanel({ risk }: { risk: OrderRisk }) {
  return (
    <section className={styles.panel} aria-labelledby="order-risk">
      <h2 id="order-risk" className={styles.subtitle}>
        Risk
      </h2>
      <dl className={styles.facts}>
        <dt>Score</dt>
        <dd>
          {risk.score} of 100 · {DECISION_TEXT[risk.decision]}
          {risk.cancelRecommended && <span className={styles.badge}>Cancel recommended</span>}
        </dd>
        <dt>Rules</dt>
        <dd>Version {risk.rulesVersion}</dd>
        {risk.verdict && (
          <>
            <dt>Decision</dt>
            <dd>
              {risk.verdict === 'approved' ? 'Approved' : 'Cancelled'} {risk.decidedBy ? 'by an admin' : 'at the review deadline'}
              {risk.decidedAt && (
                <>
                  {' '}
                  <Time iso={risk.decidedAt} />
                </>
              )}
              {risk.decisionNote && <> · {risk.decisionNote}</>}
            </dd>
          </>
        )}
      </dl>
      {risk.facts.length === 0 ? (
        <p className={styles.muted}>No signal fired.</p>
      ) : (
        <ul aria-label="Facts behind the score">
          {risk.facts.map((fact) => (
            <li key={fact.signal}>
              {fact.note} ({fact.weight > 0 ? '+' : ''}
              {fact.weight})
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const DECISION_TEXT: Record<OrderRisk['decision'], string> = { accept: 'accepted', review: 'held for review', block: 'refused' };

/**
 * A timeline entry's change: an admin's action as it is, a status or delivery move as "from → to", and a
 * declared-stock seller's entry (issue 24) marked as the seller's. Its text names its subject itself
 * ("KeyShack · Hades × 1: provided", "KeyShack: provide → 200 in 340 ms") and is shown as the server
 * wrote it, a move followed by the state it left.
 */
function TimelineChange({ event }: { event: OrderEvent }) {
  if (event.kind === 'action') return event.to;
  if (event.kind !== 'seller') return `${event.kind === 'delivery' ? 'Delivery: ' : ''}${event.from ?? 'new'} → ${event.to}`;
  return (
    <>
      <span className={styles.badge}>Seller</span> {event.to}
      {event.from && <span className={styles.muted}> (was {event.from})</span>}
    </>
  );
}
