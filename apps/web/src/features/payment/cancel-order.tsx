import { useNavigate } from 'react-router';
import type { Order } from '@keystore/contract';
import { orderMessages } from '@keystore/contract/messages';
import { orderUiMessages } from '@keystore/contract/order-ui-messages';
import { messageOf } from '../../lib/api.ts';
import { showToast } from '../../ui/toasts.tsx';
import { useCancelOrder } from './api.ts';
import styles from './pay-page.module.css';

/**
 * 'Cancel order' on the pay page: the customer leaves without paying and the order's keys go back on
 * the shelf at once, not when its 30 minutes are over (decision 016). The cart keeps the games, so the
 * way on is the cart (a guest's too: `token` is their order's). Cancelling twice changes nothing on the server, so a lost answer may be asked again.
 */
export function CancelOrder({ order, token, disabled = false }: { order: Order; token?: string; disabled?: boolean }) {
  const navigate = useNavigate();
  const cancelOrder = useCancelOrder(token);
  // Still busy once cancelled: the page is on its way to the cart.
  const busy = cancelOrder.isPending || cancelOrder.isSuccess;
  const problem = cancelOrder.error ? messageOf(cancelOrder.error, orderUiMessages.cancelFailed) : null;

  const cancel = () => {
    cancelOrder.mutate(order._id, {
      onSuccess: () => {
        showToast(orderMessages.cancelledToast);
        void navigate('/cart');
      },
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
