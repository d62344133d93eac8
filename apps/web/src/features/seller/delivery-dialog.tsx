import { useQuery } from '@tanstack/react-query';
import { useForm, useWatch } from 'react-hook-form';
import { Link } from 'react-router';
import type { Offer, OfferDelivery } from '@keystore/contract';
import { DECLARED_STOCK_MAX } from '@keystore/contract/seller-rules';
import { messageOf } from '../../lib/api.ts';
import { byRule } from '../../lib/form-rules.ts';
import { declaredStockProblem } from '@keystore/contract/seller-delivery-rules';
import { Modal } from '../../ui/modal.tsx';
import { useUpdateOffer, webhookQuery } from './api.ts';
import buttons from '../../ui/buttons.module.css';
import styles from './seller.module.css';

interface DeliveryFields {
  delivery: OfferDelivery;
  declaredStock: string;
}

/**
 * How an offer's keys reach buyers (issue 24): keys uploaded in advance, or declared stock whose keys the
 * seller's webhook hands over when one is sold, with how many it promises. Declared stock needs a webhook:
 * the dialog says so up front, and the server's refusal is shown if it comes anyway.
 */
export function DeliveryDialog({ offer, onClose }: { offer: Offer; onClose: () => void }) {
  const update = useUpdateOffer();
  const webhook = useQuery(webhookQuery());
  const { register, handleSubmit, control, formState } = useForm<DeliveryFields>({
    defaultValues: { delivery: offer.delivery, declaredStock: String(offer.declaredStock) },
  });
  const declared = useWatch({ control, name: 'delivery' }) === 'declared';
  const problem = formState.errors.declaredStock?.message;
  const save = handleSubmit(({ delivery, declaredStock }) =>
    update.mutate(
      { offerId: offer._id, patch: delivery === 'declared' ? { delivery, declaredStock: Number(declaredStock.trim()) } : { delivery } },
      { onSuccess: onClose },
    ),
  );
  return (
    <Modal title={`Delivery of ${offer.title}`} busy={update.isPending} onClose={onClose}>
      <form className={styles.stack} onSubmit={save} noValidate>
        <fieldset className={`${styles.field} ${styles.choices}`}>
          <legend>How buyers get their keys</legend>
          <label className={styles.check}>
            <input type="radio" value="uploaded" {...register('delivery')} />
            <span>
              Uploaded keys <span className={styles.note}>— you upload them in advance (Keys tab)</span>
            </span>
          </label>
          <label className={styles.check}>
            <input type="radio" value="declared" {...register('delivery')} />
            <span>
              Declared stock <span className={styles.note}>— your webhook hands each key over when it is sold</span>
            </span>
          </label>
        </fieldset>
        {declared && (
          <div className={styles.field}>
            <label htmlFor="declared-stock">Declared stock (0–{DECLARED_STOCK_MAX.toLocaleString('en')} keys)</label>
            <input
              id="declared-stock"
              className={styles.price}
              type="number"
              inputMode="numeric"
              min="0"
              max={DECLARED_STOCK_MAX}
              step="1"
              {...register('declaredStock', { validate: (value, fields) => (fields.delivery === 'declared' ? byRule(declaredStockProblem)(value) : true) })}
              {...(problem ? { 'aria-invalid': true, 'aria-describedby': 'declared-stock-error' } : {})}
            />
            {problem && (
              <span id="declared-stock-error" className={styles.problem} role="alert">
                {problem}
              </span>
            )}
          </div>
        )}
        {declared && webhook.data === null && (
          <p className={styles.note}>
            Declared stock needs your webhook:{' '}
            <Link to="/seller/webhook" className={styles.link} onClick={onClose}>
              register it first
            </Link>
            .
          </p>
        )}
        {update.isError && (
          <p className={styles.problem} role="alert">
            {messageOf(update.error, 'The delivery could not be changed. Please try again.')}
          </p>
        )}
        <div className={buttons.actions}>
          <button type="submit" className={buttons.primary} disabled={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save delivery'}
          </button>
          <button type="button" className={buttons.secondary} disabled={update.isPending} onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
