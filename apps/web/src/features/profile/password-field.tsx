import { useId, useState, type ComponentPropsWithRef } from 'react';
import { EyeIcon, EyeOffIcon } from './icons.tsx';
import controls from './controls.module.css';

interface PasswordFieldProps extends Omit<ComponentPropsWithRef<'input'>, 'type' | 'id'> {
  label: string;
  error?: string;
}

/** A password input with its label, its error and a show/hide toggle (a pressed button). */
export function PasswordField({ label, error, ...input }: PasswordFieldProps) {
  const id = useId();
  const [visible, setVisible] = useState(false);
  return (
    <div className={controls.field}>
      <label htmlFor={id} className={controls.label}>
        {label}
      </label>
      <div className={controls.inputBox}>
        <input
          id={id}
          type={visible ? 'text' : 'password'}
          className={controls.input}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          {...input}
        />
        <button
          type="button"
          className={controls.toggle}
          aria-label={`Show ${label.toLowerCase()}`}
          aria-pressed={visible}
          onClick={() => setVisible(!visible)}
        >
          {visible ? <EyeOffIcon /> : <EyeIcon />}
        </button>
      </div>
      {error && (
        <p id={`${id}-error`} className={controls.error}>
          {error}
        </p>
      )}
    </div>
  );
}
