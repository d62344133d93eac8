import { useState, type ReactNode } from 'react';
import type { GiftRequest } from '@keystore/contract';
import { GIFT_MESSAGE_MAX, giftMessageProblem, giftNameProblem } from '@keystore/contract/gift-rules';
import { emailProblem, normalizeEmail, type Problem } from '@keystore/contract/rules';
import type { GiftOption } from './gift-option.tsx';
import styles from './gift-fields.module.css';

// The recipient's fields of 'This is a gift' (ui/gift-option.tsx), in a chunk of their own with the
// contract's rules they are checked by.

export type GiftField = 'email' | 'name' | 'message';

/** The recipient's fields as typed. */
export type GiftDraft = Record<GiftField, string>;

/** What is wrong with each field, by the contract's rules (the same the server's schema answers). */
export function giftProblems(draft: GiftDraft): Record<GiftField, Problem> {
  return { email: emailProblem(draft.email), name: giftNameProblem(draft.name), message: giftMessageProblem(draft.message) };
}

/** The order's `gift` from fields that passed the rules: the e-mail as the server keeps it, the name and message trimmed. */
export function giftRequestOf(draft: GiftDraft): GiftRequest {
  return { email: normalizeEmail(draft.email), name: draft.name.trim(), message: draft.message.trim() };
}

/**
 * The recipient's e-mail, name and message. A field says what is wrong once left (or once the form was
 * sent); the message's counter is live, and so is its error once it is too long.
 */
export default function GiftFields({ option }: { option: GiftOption }) {
  const { draft, setDraft, submitted, id } = option;
  const [left, setLeft] = useState<Partial<Record<GiftField, true>>>({});
  const problems = giftProblems(draft);
  const shown = (field: GiftField) => (submitted || left[field] || (field === 'message' && problems.message) ? problems[field] : undefined);
  const field = (name: GiftField) => ({
    id: `${id}-${name}`,
    value: draft[name],
    onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value }),
    onBlur: () => setLeft((fields) => ({ ...fields, [name]: true })),
  });
  const count = draft.message.length;

  return (
    <fieldset id={`${id}-fields`} className={styles.fields}>
      <legend className="visually-hidden">The gift’s recipient</legend>
      <Field id={`${id}-email`} label="Recipient’s e-mail" problem={shown('email')}>
        <input type="email" autoComplete="off" inputMode="email" className={styles.input} {...field('email')} {...invalid(`${id}-email`, shown('email'))} />
      </Field>
      <Field id={`${id}-name`} label="Recipient’s name" problem={shown('name')}>
        <input type="text" autoComplete="off" className={styles.input} {...field('name')} {...invalid(`${id}-name`, shown('name'))} />
      </Field>
      <Field id={`${id}-message`} label="Message (optional)" problem={shown('message')}>
        <textarea rows={3} className={`${styles.input} ${styles.message}`} {...field('message')} {...invalid(`${id}-message`, shown('message'), `${id}-count`)} />
        <span id={`${id}-count`} className={count > GIFT_MESSAGE_MAX ? `${styles.counter} ${styles.over}` : styles.counter}>
          {count}/{GIFT_MESSAGE_MAX}
        </span>
      </Field>
      <p className={styles.hint}>They get an e-mail with your message and a link to their keys once the order is paid. They never see the price.</p>
    </fieldset>
  );
}

/** A field's label, control and, when it has one, its problem (announced as it appears). */
function Field({ id, label, problem, children }: { id: string; label: string; problem: Problem; children: ReactNode }) {
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {children}
      {problem && (
        <p id={`${id}-problem`} className={styles.problem} role="alert">
          {problem}
        </p>
      )}
    </div>
  );
}

/** A control's invalid state, tied to its problem (and to a note such as a counter). */
function invalid(id: string, problem: Problem, note?: string) {
  const describedBy = [problem ? `${id}-problem` : undefined, note].filter(Boolean).join(' ');
  return { 'aria-invalid': problem ? true : undefined, 'aria-describedby': describedBy || undefined };
}
