import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import type { Order } from '@keystore/contract';
import { orderMessages, orderUiMessages } from '@keystore/contract/messages';
import { apiSend, messageOf } from '../../lib/api.ts';
import { showToast } from '../../ui/toasts.tsx';
import styles from './pay-page.module.css';

/**
 * 'Cancel order' on the pay page: the customer leaves without paying and the order's keys go back on
 * the shelf at once, not when its 30 minutes are over (decision 016). The cart keeps the games, so the
 * way on is the cart. Cancelling twice changes nothing on the server, so a lost answer may be asked again.
 */
export function CancelOrder({ order, disabled = false }: { order: Order; disabled?: boolean }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const cancel = () => {
    setBusy(true);
    setProblem(null);
    apiSend<Order>('POST', `/api/orders/${encodeURIComponent(order._id)}/cancel`, undefined, { repeatable: true })
      .then((cancelled) => {
        queryClient.setQueryData(['order', order._id], cancelled);
        void queryClient.invalidateQueries({ queryKey: ['profile'] });
        showToast(orderMessages.cancelledToast);
        void navigate('/cart');
      })
      .catch((error: unknown) => {
        setProblem(messageOf(error, orderUiMessages.cancelFailed));
        setBusy(false);
      });
  };

  return (
    <div className={styles.cancel}>
      {problem && (
        <p className={styles.declined} role="alert">
          {problem}
        </p>
      )}
      <button type="button" className={styles.secondary} disabled={disabled || busy} aria-busy={busy} onClick={cancel}>
        Cancel order
      </button>
      <p className={styles.expiry}>Cancelling puts the keys back in the store at once; the games stay in your cart.</p>
    </div>
  );
}
