import { useId, useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { accountUiMessages } from '@keystore/contract/messages';
import { codeProblem } from '@keystore/contract/rules';
import { messageOf } from '../../lib/api.ts';
import { CodeInput, emptyCode } from '../../ui/code-input.tsx';
import styles from './auth-modal.module.css';

interface CodeFormProps {
  /** Sends the code; resolves when it was right and rejects with the server's answer when it was not. */
  verify: (code: string) => Promise<void>;
  /** A wrong code empties the boxes (new device) instead of only marking them (e-mail confirmation). */
  clearOnError?: boolean;
  /** What the boxes are called to a screen reader. */
  label?: string;
}

interface CodeValues {
  code: string[];
}

/** The six code boxes and Verify: the complete-code rule, then the server's verdict under the boxes. */
export function CodeForm({ verify, clearOnError = false, label = 'Verification code' }: CodeFormProps) {
  const { control, handleSubmit, setError, clearErrors, setValue, setFocus, formState } = useForm<CodeValues>({
    defaultValues: { code: emptyCode() },
    reValidateMode: 'onSubmit',
  });
  const [verified, setVerified] = useState(false);
  const errorId = useId();
  const error = formState.errors.code?.message;

  const submit = handleSubmit(async ({ code }) => {
    try {
      await verify(code.join(''));
      setVerified(true);
    } catch (failure) {
      setError('code', { message: messageOf(failure, accountUiMessages.codeInvalid) });
      if (clearOnError) {
        setValue('code', emptyCode());
        setFocus('code');
      }
    }
  });

  const busy = formState.isSubmitting || verified;
  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <Controller
        name="code"
        control={control}
        rules={{ validate: (digits) => codeProblem(digits.join('')) ?? true }}
        render={({ field }) => (
          <CodeInput
            ref={field.ref}
            label={label}
            value={field.value}
            onChange={(digits) => {
              field.onChange(digits);
              clearErrors('code');
            }}
            invalid={Boolean(error)}
            describedBy={error ? errorId : undefined}
            disabled={verified}
          />
        )}
      />
      {error && (
        <p id={errorId} className={`${styles.error} ${styles.center}`} role="alert">
          {error}
        </p>
      )}
      <button type="submit" className={styles.primary} disabled={busy}>
        {formState.isSubmitting ? 'Verifying…' : 'Verify'}
      </button>
    </form>
  );
}
