import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { Order } from '@keystore/contract';
import { orderMessages } from '@keystore/contract/messages';
import { orderUiMessages } from '@keystore/contract/order-ui-messages';
import { ApiError, messageOf } from '../../lib/api.ts';
import { openAuthDialog } from '../../lib/auth-dialog.ts';
import { removeGameFromCart } from '../../lib/cart.ts';
import { formatEuro } from '../../lib/money.ts';
import { orderQuery, withOrderToken } from '../../lib/orders.ts';
import { useSession } from '../../lib/session.ts';
import { PageSkeleton } from '../../ui/page-skeleton.tsx';
import { orderClaimsQuery, type OrderLink } from './api.ts';
import { KeyProblem, latestClaims } from './key-problem.tsx';
import { RevealKey } from './reveal-key.tsx';
import { awaitsDelivery } from './use-purchases.ts';
import styles from './order-page.module.css';

/** How often a paid order whose keys are on their way is asked about: the page may stay open a while when a seller's keys are late. */
export const ORDER_POLL_MS = 3000;

/**
 * How soon after its payment an order's page still empties the cart of its games: Stripe's page sends a
 * guest here straight away, past the pay page that empties it after a test card. Opened later (the
 * e-mailed link), the page leaves the cart alone.
 */
const JUST_PAID_MS = 15 * 60_000;

const when = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });

/**
 * One order reached by its link (/orders/:id, issue 29): a guest's with the token the receipt's link
 * carries (`?token=`), or a signed-in owner's without one. The order's lines, payment and delivery,
 * and each key with 'Reveal Key' (one at a time, so keys never revealed can still go back to their
 * seller) and 'Report a problem' once revealed. Polled while its keys are on their way.
 */
export function OrderPage() {
  const { id = '' } = useParams();
  const [params] = useSearchParams();
  const token = params.get('token') ?? undefined;
  const { status } = useSession();
  // An owner's request carries the session: a stored one is checked first.
  if (status === 'restoring') return <OrderSkeleton />;
  return <OrderView key={`${id}:${token ?? ''}`} link={{ orderId: id, token }} signedIn={status === 'signed-in'} />;
}

function OrderView({ link, signedIn }: { link: OrderLink; signedIn: boolean }) {
  const { data: order, error } = useQuery({
    ...orderQuery(link.orderId, link.token),
    refetchInterval: (query) => (query.state.data && awaitsDelivery(query.state.data) ? ORDER_POLL_MS : false),
  });
  const keys = order?.keys ?? [];
  // By the order's link when there is one; a signed-in owner without it reads their own claims.
  const claims = useQuery({ ...orderClaimsQuery(link), enabled: (link.token !== undefined || signedIn) && keys.length > 0 });
  const claimOf = latestClaims(claims.data);
  useCartEmptiedWhenJustPaid(order);
  // The time the page opened: whether the order can still be paid is judged once, not on every render.
  const [openedAt] = useState(() => Date.now());

  if (error) return <OrderProblem error={error} signedIn={signedIn} />;
  if (!order) return <OrderSkeleton />;
  const payable = order.status === 'Awaiting payment' && Date.parse(order.expiresAt) > openedAt;

  return (
    <section className={styles.page} aria-labelledby="order-title">
      <title>Your order · Keystore</title>
      <h1 id="order-title" className={styles.title}>
        Your order
      </h1>
      <div className={styles.layout}>
        <div className={styles.panel}>
          <h2 className={styles.subtitle}>Summary</h2>
          <OrderFacts order={order} />
          <ul className={styles.lines} aria-label="Products in this order">
            {order.lines.map((line) => (
              <li key={`${line.gameId}:${line.offerId}`} className={styles.line}>
                <span className={styles.lineTitle}>
                  {line.title} <span className={styles.muted}>({line.platform})</span>
                </span>
                <span className={styles.lineAmount}>
                  {line.quantity} × {formatEuro(line.unitPrice)}
                </span>
              </li>
            ))}
          </ul>
          {(order.statusNote ?? order.declineReason) && <p className={styles.muted}>{order.statusNote ?? order.declineReason}</p>}
          {payable && (
            <Link to={withOrderToken(`/pay/${encodeURIComponent(order._id)}`, link.token)} className={styles.primary}>
              Pay now
            </Link>
          )}
        </div>
        <div className={styles.panel}>
          <h2 className={styles.subtitle}>Your keys</h2>
          {awaitsDelivery(order) && (
            <p className={styles.note} role="status">
              Your keys are being delivered. They will appear here in a moment.
            </p>
          )}
          {sentAsGift(order) ? (
            <p className={styles.note}>Sent as a gift: we e-mailed the recipient a link to reveal the keys. Only they can see them.</p>
          ) : keys.length > 0 ? (
            <ul className={styles.keys} aria-label="Keys in this order">
              {keys.map((key) => {
                const platform = order.lines.find((line) => line.gameId === key.gameId)?.platform;
                return (
                <li key={key.purchaseId} className={styles.key}>
                  <h3 className={styles.keyTitle}>{key.title}</h3>
                  <RevealKey purchaseId={key.purchaseId} title={key.title} link={link} platform={platform} />
                  <KeyProblem purchaseId={key.purchaseId} title={key.title} platform={platform} revealed={key.revealed} claim={claimOf.get(key.purchaseId)} token={link.token} />
                </li>
                );
              })}
            </ul>
          ) : (
            !awaitsDelivery(order) && <p className={styles.muted}>{order.status === 'Awaiting payment' ? 'Your keys appear here once the order is paid.' : 'This order has no keys.'}</p>
          )}
          {!signedIn && !sentAsGift(order) && (
            <p className={styles.muted}>
              Keep the link we e-mailed you: it is how you reach these keys. Create an account with the same e-mail and this order joins your
              library.
            </p>
          )}
        </div>
      </div>
    </section>
  );
}

/**
 * Whether the order's keys went to a gift's recipient (issue 29): its buyer's page lists none of them,
 * though its lines hold them (the order's answer has no flag of its own for it).
 */
function sentAsGift(order: Order): boolean {
  return (order.keys?.length ?? 0) === 0 && order.lines.some((line) => line.keysDelivered > 0);
}

/** Placed, payment, delivery and amount, as the profile's order details show them. */
function OrderFacts({ order }: { order: Order }) {
  return (
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
  );
}

/** The order could not be read: a link that is not (or no longer) valid says so, in the contract's words. */
function OrderProblem({ error, signedIn }: { error: Error; signedIn: boolean }) {
  const linkInvalid = error instanceof ApiError && (error.status === 401 || error.status === 404);
  return (
    <section className={styles.closed} aria-labelledby="order-title">
      <title>Your order · Keystore</title>
      <h1 id="order-title" className={styles.title}>
        Your order
      </h1>
      <p role="alert">{linkInvalid ? orderMessages.orderLinkInvalid : messageOf(error, orderUiMessages.orderLoadFailed)}</p>
      <div className={styles.actions}>
        {!signedIn && (
          <button type="button" className={styles.primary} onClick={() => openAuthDialog('login')}>
            Sign in
          </button>
        )}
        <Link to="/store" className={signedIn ? styles.primary : styles.secondary}>
          Back to Store
        </Link>
      </div>
    </section>
  );
}

/** A just-paid order's games leave the cart, once per order (see JUST_PAID_MS). */
function useCartEmptiedWhenJustPaid(order: Order | undefined): void {
  const emptiedFor = useRef<string | null>(null);
  const [openedAt] = useState(() => Date.now());
  useEffect(() => {
    if (order?.status !== 'Paid' || order.paidAt === null || emptiedFor.current === order._id) return;
    emptiedFor.current = order._id;
    if (openedAt - Date.parse(order.paidAt) > JUST_PAID_MS) return;
    for (const line of order.lines) removeGameFromCart(line.gameId);
  }, [order, openedAt]);
}

function OrderSkeleton() {
  return (
    <PageSkeleton className={styles.page} label="Your order" status="Loading your order">
      <div className={styles.bone} />
    </PageSkeleton>
  );
}
