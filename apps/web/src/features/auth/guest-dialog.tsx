import { useId } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { orderUiMessages } from '@keystore/contract/order-ui-messages';
import { emailProblem, normalizeEmail } from '@keystore/contract/rules';
import { messageOf } from '../../lib/api.ts';
import { closeAuthDialog, openAuthDialog, type PendingCheckout } from '../../lib/auth-dialog.ts';
import { openPaymentPage, usePlaceOrder, type PaymentState } from '../../lib/checkout.ts';
import { byRule } from '../../lib/form-rules.ts';
import { withOrderToken } from '../../lib/orders.ts';
import { GiftOptionFields, useGiftOption } from '../../ui/gift-option.tsx';
import { TextField } from './text-field.tsx';
import styles from './auth-modal.module.css';

// Not in the contract's messages yet: only this form checks them, the server takes one e-mail and no terms flag.
const EMAILS_DIFFER = 'E-mails do not match';
const GUEST_TERMS_REQUIRED = 'Please accept the Terms of Service';

interface GuestValues {
  email: string;
  confirmEmail: string;
  terms: boolean;
}

/**
 * Buying without an account (issue 29): the e-mail twice (the contract's rule on the first, equality on
 * the second), 'This is a gift' (ticked already when the cart made it one) and the terms, then the
 * purchase that opened the login dialog is placed for that e-mail, without a session, under one
 * Idempotency-Key per attempt as every order is (usePlaceOrder), and its payment page opens with the
 * order's token.
 */
export function GuestDialog({ email = '', checkout }: { email?: string; checkout: PendingCheckout }) {
  const { register, handleSubmit, getValues, formState } = useForm<GuestValues>({
    mode: 'onTouched',
    defaultValues: { email, confirmEmail: '', terms: false },
  });
  const { errors, dirtyFields, isSubmitted } = formState;
  const placeOrder = usePlaceOrder();
  const navigate = useNavigate();
  const termsErrorId = useId();
  const giftOption = useGiftOption(checkout.gift);
  // Still busy once placed: the dialog closes as the payment page opens.
  const busy = placeOrder.isPending || placeOrder.isSuccess;
  const problem = placeOrder.error ? messageOf(placeOrder.error, orderUiMessages.orderPlaceFailed) : null;

  const submit = handleSubmit(
    async ({ email }) => {
      if (busy) return;
      const gift = await giftOption.giftToSend();
      if (gift === null) return;
      const guestEmail = normalizeEmail(email);
      placeOrder.mutate(
        { items: checkout.items, email: guestEmail, gift },
        {
          onSuccess: ({ paymentUrl, token }) => {
            placeOrder.endAttempt();
            // The test gateway's page (in the app) takes the order's token; an external provider's page is its own.
            const url = paymentUrl.startsWith('/') ? withOrderToken(paymentUrl, token) : paymentUrl;
            openPaymentPage(url, (path) => navigate(path, { state: { guestEmail, gift } satisfies PaymentState }));
            closeAuthDialog();
          },
          onError: checkout.onError,
        },
      );
    },
    // The guest's fields are wrong (react-hook-form focuses the first): the gift's say what is wrong with them too.
    () => void giftOption.giftToSend({ focus: false }),
  );

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <p className={styles.text}>
        {giftOption.isGift
          ? 'No account needed: we e-mail you a link to your order, and the recipient a link to their keys.'
          : 'No account needed: we e-mail you a link to your order and its keys.'}
      </p>
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        registration={register('email', { validate: byRule(emailProblem), deps: ['confirmEmail'] })}
        error={errors.email?.message}
      />
      <TextField
        label="Confirm email"
        type="email"
        autoComplete="email"
        registration={register('confirmEmail', { validate: (value, values) => normalizeEmail(value) === normalizeEmail(values.email) || EMAILS_DIFFER })}
        // Checked again as the first e-mail changes, but shown only once typed into (or on submit).
        error={dirtyFields.confirmEmail === true || isSubmitted ? errors.confirmEmail?.message : undefined}
      />
      <GiftOptionFields option={giftOption} />
      <div className={styles.field}>
        <label className={styles.check}>
          <input
            type="checkbox"
            aria-invalid={errors.terms ? true : undefined}
            aria-describedby={errors.terms ? termsErrorId : undefined}
            {...register('terms', { validate: (value) => value || GUEST_TERMS_REQUIRED })}
          />
          <span>
            I accept the{' '}
            <a href="/terms" target="_blank" rel="noopener">
              Terms of Service<span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          </span>
        </label>
        <p id={termsErrorId} className={styles.error}>
          {errors.terms?.message}
        </p>
      </div>
      {problem && (
        <p className={styles.alert} role="alert">
          {problem}
        </p>
      )}
      <button type="submit" className={styles.primary} disabled={busy} aria-busy={busy}>
        {busy ? 'Placing your order…' : 'Continue to payment'}
      </button>
      <p className={`${styles.hint} ${styles.center}`}>
        Have an account?{' '}
        <button type="button" className={styles.link} onClick={() => openAuthDialog('login', { checkout: { ...checkout, gift: giftOption.isGift ? giftOption.draft : undefined }, email: getValues('email') })}>
          Login
        </button>
      </p>
    </form>
  );
}
