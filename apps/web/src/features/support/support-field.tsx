import { useId, type InputHTMLAttributes, type ReactNode, type TextareaHTMLAttributes } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import styles from './support-page.module.css';

type FieldProps = {
  label: string;
  registration: UseFormRegisterReturn;
  /** The rule's message under the field. */
  error?: string | undefined;
  /** Shown at the end of the message line when there is no error (the character counter). */
  aside?: ReactNode;
} & (
  | ({ multiline?: false } & Omit<InputHTMLAttributes<HTMLInputElement>, 'id' | 'className'>)
  | ({ multiline: true } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id' | 'className'>)
);

/** A labelled input or text area of the support form, with its message tied to it (aria-describedby). */
export function SupportField({ label, registration, error, aside, ...control }: FieldProps) {
  const id = useId();
  const messageId = `${id}-message`;
  const shared = { id, className: styles.input, 'aria-invalid': error ? true : undefined, 'aria-describedby': error ? messageId : undefined };
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {control.multiline ? (
        <textarea {...shared} rows={6} {...withoutMultiline(control)} {...registration} />
      ) : (
        <input {...shared} {...withoutMultiline(control)} {...registration} />
      )}
      {/* Always there, one line tall, so a message appearing on blur does not move the form. */}
      <div className={styles.fieldFoot}>
        <p id={messageId} className={styles.error}>
          {error}
        </p>
        {aside}
      </div>
    </div>
  );
}

function withoutMultiline<T extends { multiline?: boolean }>(control: T): Omit<T, 'multiline'> {
  const { multiline: _multiline, ...rest } = control;
  return rest;
}
