import { useRef, type ClipboardEvent, type KeyboardEvent, type Ref } from 'react';
import { CODE_LENGTH } from '@keystore/contract/constants';
import styles from './code-input.module.css';

interface CodeInputProps {
  /** One entry per box: a digit or '' (CODE_LENGTH entries). */
  value: readonly string[];
  onChange: (digits: string[]) => void;
  /** Marks every box invalid (a wrong code). */
  invalid?: boolean;
  disabled?: boolean;
  /** Names the group of boxes for assistive technology. */
  label: string;
  /** An element describing the boxes, such as the error under them. */
  describedBy?: string;
  /** Reaches the first box, so a form can move focus to the code (after clearing it, or on an error). */
  ref?: Ref<HTMLInputElement>;
}

const ALL_DIGITS = new RegExp(`^\\d{${CODE_LENGTH}}$`);

/** An empty code: one '' per box. */
export function emptyCode(): string[] {
  return Array.from({ length: CODE_LENGTH }, () => '');
}

/**
 * The verification code as single-digit boxes (SPEC §2): typing a digit moves to the next box,
 * Backspace on an empty box goes back and clears it, the arrow keys move, and pasting exactly six
 * digits into any box fills them all. Anything else pasted is ignored.
 */
export function CodeInput({ value, onChange, invalid = false, disabled = false, label, describedBy, ref }: CodeInputProps) {
  const boxes = useRef<Array<HTMLInputElement | null>>([]);
  const focusBox = (index: number) => {
    const box = boxes.current[Math.max(0, Math.min(CODE_LENGTH - 1, index))];
    box?.focus();
    box?.select();
  };

  const fillAll = (digits: string) => {
    onChange(digits.split(''));
    focusBox(CODE_LENGTH - 1);
  };

  const type = (index: number, typed: string) => {
    const digits = typed.replace(/\D/g, '');
    // A phone's one-time-code autofill puts the whole code into the first box.
    if (ALL_DIGITS.test(digits)) return fillAll(digits);
    if (typed !== '' && digits === '') return;
    const next = [...value];
    // The box may already hold a digit: the newest keystroke wins.
    next[index] = digits.slice(-1);
    onChange(next);
    if (next[index]) focusBox(index + 1);
  };

  const onKeyDown = (index: number, event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Backspace' && !value[index] && index > 0) {
      event.preventDefault();
      const next = [...value];
      next[index - 1] = '';
      onChange(next);
      focusBox(index - 1);
    } else if (event.key === 'ArrowLeft') {
      event.preventDefault();
      focusBox(index - 1);
    } else if (event.key === 'ArrowRight') {
      event.preventDefault();
      focusBox(index + 1);
    }
  };

  const onPaste = (event: ClipboardEvent<HTMLInputElement>) => {
    event.preventDefault();
    const pasted = event.clipboardData.getData('text').trim();
    if (ALL_DIGITS.test(pasted)) fillAll(pasted);
  };

  return (
    <div className={styles.boxes} role="group" aria-label={label} aria-describedby={describedBy}>
      {Array.from({ length: CODE_LENGTH }, (_, index) => (
        <input
          key={index}
          ref={(element) => {
            boxes.current[index] = element;
            if (index === 0) assignRef(ref, element);
          }}
          className={styles.box}
          value={value[index] ?? ''}
          onChange={(event) => type(index, event.target.value)}
          onKeyDown={(event) => onKeyDown(index, event)}
          onPaste={onPaste}
          onFocus={(event) => event.target.select()}
          aria-label={`Digit ${index + 1} of ${CODE_LENGTH}`}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          inputMode="numeric"
          autoComplete={index === 0 ? 'one-time-code' : 'off'}
          pattern="[0-9]*"
          disabled={disabled}
        />
      ))}
    </div>
  );
}

function assignRef<T>(ref: Ref<T> | undefined, value: T | null): void {
  if (typeof ref === 'function') ref(value);
  else if (ref) ref.current = value;
}
