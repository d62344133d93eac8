import { useId, type InputHTMLAttributes } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import styles from './auth-modal.module.css';

interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'> {
  label: string;
  registration: UseFormRegisterReturn;
  /** The rule's or the server's message under the field. */
  error?: string;
  /** A note under the field that is not an error (an availability confirmation). */
  note?: string;
}

/** A labelled input whose message is tied to it (aria-describedby), marked invalid while it has one. */
export function TextField({ label, registration, error, note, ...input }: TextFieldProps) {
  const id = useId();
  const messageId = `${id}-message`;
  const message = error ?? note;
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      <input
        id={id}
        className={styles.input}
        aria-invalid={error ? true : undefined}
        aria-describedby={message ? messageId : undefined}
        {...input}
        {...registration}
      />
      {/* Always there, one line tall, so a message appearing on blur does not move the control being clicked. */}
      <p id={messageId} className={error ? styles.error : styles.ok}>
        {message}
      </p>
    </div>
  );
}
