import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import type { TestPaymentRequest } from '@keystore/contract';
import { orderUiMessages } from '@keystore/contract/order-ui-messages';
import { isRefusal, messageOf } from '../../lib/api.ts';
import { openAuthDialog } from '../../lib/auth-dialog.ts';
import { removeGameFromCart } from '../../lib/cart.ts';
import { usePlaceOrder, type PaymentState } from '../../lib/checkout.ts';
import { formatEuro } from '../../lib/money.ts';
import { orderQuery } from '../../lib/orders.ts';
import { useSession } from '../../lib/session.ts';
import { PageSkeleton } from '../../ui/page-skeleton.tsx';
import { showToast } from '../../ui/toasts.tsx';
import { usePayOrder } from './api.ts';
import { CancelOrder } from './cancel-order.tsx';
import { CardForm } from './card-form.tsx';
import { ClosedOrder } from './closed-order.tsx';
import { OrderLines } from './order-lines.tsx';
import { ProviderCheckout } from './provider-checkout.tsx';
import { ReservedUntil } from './reserved-until.tsx';
import { TestCardsHint } from './test-cards-hint.tsx';
import styles from './pay-page.module.css';

/**
 * The built-in test gateway's payment page (/pay/:orderId, issue 5): the order, and a card form.
 * Paid: the bought games leave the cart and the library opens. Declined: the message stays above the form; the
 * server has closed that order, so the next attempt places a new order with the same lines first, under one
 * Idempotency-Key until a verdict, so a click repeated after a lost answer pays that order rather than placing another.
 * An order paid on Stripe's page comes here when the customer cancels there (`?cancelled=1`). 'Cancel order'
 * closes the order unpaid and puts its keys back on the shelf at once. A guest (issue 29) comes with the
 * order's token (`?token=`), which every call about the order carries instead of a session, and pays
 * on to the order page the verdict names.
 */
export function PayPage() {
  const { orderId = '' } = useParams();
  const [params] = useSearchParams();
  const token = params.get('token') ?? undefined;
  const { status } = useSession();
  if (status === 'restoring') return <PaySkeleton />;
  if (status === 'signed-out' && !token) {
    return (
      <section className={styles.closed} aria-labelledby="pay-title">
        <h1 id="pay-title" className={styles.title}>
          Payment
        </h1>
        <p>Please log in to pay for your order.</p>
        <button type="button" className={styles.primary} onClick={() => openAuthDialog('login')}>
          Log in
        </button>
      </section>
    );
  }
  return <PayOrder key={orderId} orderId={orderId} token={token} guest={status === 'signed-out'} />;
}

function PayOrder({ orderId, token, guest }: { orderId: string; token?: string; guest: boolean }) {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  // The e-mail the guest form placed the order for and the gift it is, to place it again as it was after a
  // decline (absent on a page opened otherwise).
  const { guestEmail, gift } = (useLocation().state as PaymentState | null) ?? {};
  const { data: order, error } = useQuery(orderQuery(orderId, token));
  const [busy, setBusy] = useState(false);
  // What the last 'Pay' met, shown above the form.
  const [problem, setProblem] = useState<string | null>(null);
  // Set once a card was declined here (or the server refused the payment): that order is closed, so 'Pay' places a new one.
  const [closed, setClosed] = useState(false);
  const placeOrder = usePlaceOrder();
  const payOrder = usePayOrder();
  // When the page opened: an order past its expiry then is shown as lapsed (the server refuses it anyway).
  const [openedAt] = useState(() => Date.now());

  if (error) {
    const message = messageOf(error, orderUiMessages.orderLoadFailed);
    return <ClosedOrder message={message} />;
  }
  if (!order) return <PaySkeleton />;
  const expired = order.status === 'Awaiting payment' && Date.parse(order.expiresAt) <= openedAt;
  if (!closed && (order.status !== 'Awaiting payment' || expired)) return <ClosedOrder order={order} token={token} expired={expired} />;
  // No card form for an order paid on the provider's page: the test gateway would refuse it.
  if (order.paymentProvider !== 'test') return <ProviderCheckout order={order} token={token} cancelled={params.get('cancelled') === '1'} />;
  // A new order needs a session or the guest's e-mail: without either, the cart is the way to try again.
  const canPlaceAgain = !guest || guestEmail !== undefined;

  const pay = async (card: TestPaymentRequest) => {
    setBusy(true);
    try {
      let paying = { orderId: order._id, token };
      if (closed) {
        const lines = order.lines.map((line) => ({ gameId: line.gameId, quantity: line.quantity }));
        const placed = await placeOrder.mutateAsync(guest ? { items: lines, email: guestEmail, gift } : { items: lines, gift });
        paying = { orderId: placed.order._id, token: placed.token };
      }
      const verdict = await payOrder.mutateAsync({ ...paying, card });
      placeOrder.endAttempt();
      // Paid, or held for review (authorised, not charged): the order is the buyer's either way.
      if (verdict.status !== 'Declined') {
        // Only what was bought leaves the cart: a one-click purchase keeps the rest of it.
        for (const line of order.lines) removeGameFromCart(line.gameId);
        showToast(verdict.message);
        void navigate(verdict.redirectUrl);
        return;
      }
      setProblem(verdict.message);
      setClosed(true);
    } catch (failure) {
      placeOrder.attemptFailed(failure);
      setProblem(messageOf(failure, orderUiMessages.paymentNoAnswer));
      // A refusal (the order lapsed meanwhile) closes it; no answer leaves it open: it may still be paid.
      if (isRefusal(failure)) setClosed(true);
    }
    setBusy(false);
  };

  return (
    <section className={styles.page} aria-labelledby="pay-title">
      <h1 id="pay-title" className={styles.title}>
        Payment
      </h1>
      <div className={styles.layout}>
        <div className={styles.summary}>
          <h2 className={styles.subtitle}>Your order</h2>
          <OrderLines lines={order.lines} />
          <p className={styles.total}>
            <span>Total</span>
            <span>{formatEuro(order.amount)}</span>
          </p>
          {!closed && (
            <p className={styles.expiry}>
              Reserved for you until <ReservedUntil expiresAt={order.expiresAt} />. Pay before then to keep the keys.
            </p>
          )}
        </div>
        <div className={styles.card}>
          <h2 className={styles.subtitle}>Card details</h2>
          {problem && (
            <p className={styles.declined} role="alert">
              {problem}
            </p>
          )}
          {closed && !canPlaceAgain ? (
            <Link to="/cart" className={styles.primary}>
              Back to cart
            </Link>
          ) : (
            <>
              {closed && <p className={styles.expiry}>You can try another card: paying again places a new order with the same games.</p>}
              <CardForm busy={busy} submitLabel={`Pay ${formatEuro(order.amount)}`} onPay={(card) => void pay(card)} />
            </>
          )}
          {/* Once a card was declined here that order is closed already: its keys are back on the shelf. */}
          {!closed && <CancelOrder order={order} token={token} disabled={busy} />}
          <TestCardsHint />
        </div>
      </div>
    </section>
  );
}

function PaySkeleton() {
  return (
    <PageSkeleton className={styles.page} label="Payment" status="Loading your order">
      <div className={styles.bone} />
    </PageSkeleton>
  );
}

