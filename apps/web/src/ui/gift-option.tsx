import { lazy, Suspense, useId, useState } from 'react';
import type { GiftRequest } from '@keystore/contract';
import type { GiftDraft, GiftField } from './gift-fields.tsx';
import styles from './gift-fields.module.css';

// The recipient's fields and their rules (the contract's e-mail rule brings its word lists) load once
// the box is ticked: most orders are not gifts, and the cart does not otherwise need them.
const GiftFields = lazy(() => import('./gift-fields.tsx'));
const loadRules = () => import('./gift-fields.tsx');

/** The fields in the order a form shows them: the first wrong one takes the focus. */
const FIELDS: readonly GiftField[] = ['email', 'name', 'message'];

/** 'This is a gift' and the recipient's fields, as a form that places an order holds them. */
export interface GiftOption {
  isGift: boolean;
  setIsGift(isGift: boolean): void;
  draft: GiftDraft;
  setDraft(draft: GiftDraft): void;
  /** Whether the form was sent once: every wrong field shows why from then on. */
  submitted: boolean;
  /** The prefix of the fields' ids. */
  id: string;
  /**
   * The order's `gift`, checked by the contract's rules: undefined when the order is not a gift, null
   * when a field is wrong (each says why; with `focus`, the first one takes the focus).
   */
  giftToSend(options?: { focus?: boolean }): Promise<GiftRequest | undefined | null>;
}

/** The state of 'This is a gift' for one form, ticked and filled in already when `initial` is a gift (the cart's, carried to the guest form). */
export function useGiftOption(initial?: GiftRequest): GiftOption {
  const [isGift, setIsGift] = useState(initial !== undefined);
  const [draft, setDraft] = useState<GiftDraft>({ email: initial?.email ?? '', name: initial?.name ?? '', message: initial?.message ?? '' });
  const [submitted, setSubmitted] = useState(false);
  const id = useId();
  const giftToSend = async ({ focus = true } = {}) => {
    if (!isGift) return undefined;
    const { giftProblems, giftRequestOf } = await loadRules();
    const problems = giftProblems(draft);
    const wrong = FIELDS.find((field) => problems[field] !== undefined);
    if (wrong === undefined) return giftRequestOf(draft);
    setSubmitted(true);
    if (focus) document.getElementById(`${id}-${wrong}`)?.focus();
    return null;
  };
  return { isGift, setIsGift, draft, setDraft, submitted, id, giftToSend };
}

/**
 * 'This is a gift' (issue 29): ticked, the recipient's e-mail, name and a message for them, checked by
 * the contract's rules before the order is sent (`option.giftToSend()`).
 */
export function GiftOptionFields({ option }: { option: GiftOption }) {
  const { isGift, setIsGift, id } = option;
  return (
    <div className={styles.option}>
      <label className={styles.check}>
        <input type="checkbox" checked={isGift} onChange={(event) => setIsGift(event.target.checked)} aria-controls={isGift ? `${id}-fields` : undefined} />
        <span>This is a gift</span>
      </label>
      {isGift && (
        <Suspense fallback={<p className={styles.hint}>Loading the gift’s details…</p>}>
          <GiftFields option={option} />
        </Suspense>
      )}
    </div>
  );
}
