import { useId, type ChangeEvent, type FormEvent, type InputHTMLAttributes } from 'react';
import { useForm } from 'react-hook-form';
import { cardholderNameProblem, cardNumberProblem, cvcProblem, expiryProblem } from '@keystore/contract/payment-rules';
import type { TestPaymentRequest } from '@keystore/contract';
import { byRule } from '../../lib/form-rules.ts';
import { MastercardMark, VisaMark } from './card-marks.tsx';
import styles from './pay-page.module.css';

type Field = keyof TestPaymentRequest;

const RULES: Record<Field, (value: string) => string | undefined> = {
  cardNumber: cardNumberProblem,
  expiry: (value) => expiryProblem(value),
  cvc: cvcProblem,
  name: cardholderNameProblem,
};

/** Groups the digits by four as they are typed (the way they are printed on the card). */
function groupDigits(raw: string): string {
  return raw.replace(/\D/g, '').slice(0, 19).replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** Adds the slash of MM/YY after the month, so typing four digits is enough. */
function shapeExpiry(raw: string): string {
  const digits = raw.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

interface CardFormProps {
  busy: boolean;
  /** Label of the submit button, with the amount. */
  submitLabel: string;
  onPay: (card: TestPaymentRequest) => void;
}

/**
 * The test gateway's card form. Each field is checked with the contract's rules (react-hook-form's
 * `validate`, as every form of the app) before anything is sent (the server checks them again), and a
 * problem is tied to its field for screen readers.
 */
export function CardForm({ busy, submitLabel, onPay }: CardFormProps) {
  const id = useId();
  // Checked on submit only; a field's problem goes as soon as it is changed, until the next submit.
  const { register, handleSubmit, setValue, clearErrors, formState } = useForm<TestPaymentRequest>({
    defaultValues: { cardNumber: '', expiry: '', cvc: '', name: '' },
    reValidateMode: 'onSubmit',
  });
  const problems = formState.errors;
  // The first field with a problem takes the focus (react-hook-form's shouldFocusError, in the fields' order).
  const pay = handleSubmit((card) => onPay(card));
  const submit = (event: FormEvent) => {
    if (!busy) return void pay(event);
    event.preventDefault();
  };

  const field = (name: Field, label: string, props: InputHTMLAttributes<HTMLInputElement>, shape?: (raw: string) => string) => {
    const problem = problems[name]?.message;
    return (
      <div className={styles.field}>
        <label htmlFor={`${id}-${name}`}>{label}</label>
        <input
          id={`${id}-${name}`}
          className={styles.input}
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? `${id}-${name}-problem` : undefined}
          {...props}
          {...register(name, {
            validate: byRule(RULES[name]),
            onChange: (event: ChangeEvent<HTMLInputElement>) => {
              if (shape) setValue(name, shape(event.target.value));
              clearErrors(name);
            },
          })}
        />
        {problem && (
          <p id={`${id}-${name}-problem`} className={styles.fieldProblem}>
            {problem}
          </p>
        )}
      </div>
    );
  };

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-label="Card details">
      <div className={styles.brands}>
        <span className={styles.brandsText}>We accept</span>
        <span role="img" aria-label="Visa">
          <VisaMark />
        </span>
        <span role="img" aria-label="Mastercard">
          <MastercardMark />
        </span>
      </div>
      {field('cardNumber', 'Card number', { inputMode: 'numeric', autoComplete: 'cc-number', placeholder: '1234 5678 9012 3456', maxLength: 23 }, groupDigits)}
      <div className={styles.pair}>
        {field('expiry', 'Expiry (MM/YY)', { inputMode: 'numeric', autoComplete: 'cc-exp', placeholder: 'MM/YY', maxLength: 5 }, shapeExpiry)}
        {field('cvc', 'CVC', { inputMode: 'numeric', autoComplete: 'cc-csc', placeholder: '123', maxLength: 3 })}
      </div>
      {field('name', 'Name on card', { autoComplete: 'cc-name', placeholder: 'As printed on the card', maxLength: 100 })}
      <button type="submit" className={styles.pay} aria-busy={busy} disabled={busy}>
        {busy ? 'Processing payment…' : submitLabel}
      </button>
    </form>
  );
}
