import { useState } from 'react';
import styles from './quantity-control.module.css';

interface QuantityControlProps {
  /** What the control is for, read out with its buttons ("The Witcher 3"). */
  label: string;
  value: number;
  /** 0 on a game card (0 removes the item), 1 in the cart. */
  min: 0 | 1;
  onChange: (quantity: number) => void;
  onRemove: () => void;
}

/** Minus, a number field, plus and remove (SPEC §2). Values below `min` are ignored; 0 removes. */
export function QuantityControl({ label, value, min, onChange, onRemove }: QuantityControlProps) {
  // What is being typed, shown until the field loses focus; otherwise the value itself.
  const [draft, setDraft] = useState<string | null>(null);

  const apply = (quantity: number) => {
    if (!Number.isInteger(quantity) || quantity < min) return;
    if (quantity === 0) onRemove();
    else onChange(quantity);
  };

  return (
    <div className={styles.control} role="group" aria-label={`Quantity of ${label}`}>
      <button type="button" className={styles.step} aria-label={`One less ${label}`} disabled={value <= Math.max(min, 1) && min === 1} onClick={() => apply(value - 1)}>
        −
      </button>
      <input
        className={styles.input}
        type="number"
        inputMode="numeric"
        min={min}
        value={draft ?? String(value)}
        aria-label={`Quantity of ${label}`}
        onChange={(event) => {
          setDraft(event.target.value);
          if (event.target.value !== '') apply(Number(event.target.value));
        }}
        onBlur={() => setDraft(null)}
      />
      <button type="button" className={styles.step} aria-label={`One more ${label}`} onClick={() => apply(value + 1)}>
        +
      </button>
      <button type="button" className={styles.remove} aria-label={`Remove ${label}`} onClick={onRemove}>
        ×
      </button>
    </div>
  );
}
