import type { FieldPathByValue, FieldValues, UseFormRegister, Validate } from 'react-hook-form';
import type { Problem } from '@keystore/contract/rules';
import { byRule } from '../../lib/form-rules.ts';
import { TextField } from './text-field.tsx';

/** The two fields of a new password, in any form that has them. */
export interface NewPasswordValues extends FieldValues {
  password: string;
  confirmPassword: string;
}

interface NewPasswordFieldsProps<Values extends NewPasswordValues> {
  register: UseFormRegister<Values>;
  errors: { password?: { message?: string }; confirmPassword?: { message?: string } };
  labels: { password: string; confirm: string };
  /** The contract's rule for the password. */
  rule: (value: string) => Problem;
  /** The message when the two differ. */
  differ: string;
  /** Whether the confirmation's message may show yet: it is re-checked as the password changes, but shown only once the user has typed there (or submitted). */
  showConfirmError: boolean;
}

/** A new password and its confirmation (sign-up, reset): the contract's rule on the first, equality on the second. */
export function NewPasswordFields<Values extends NewPasswordValues>({ register, errors, labels, rule, differ, showConfirmError }: NewPasswordFieldsProps<Values>) {
  const password = 'password' as FieldPathByValue<Values, string>;
  const confirmPassword = 'confirmPassword' as FieldPathByValue<Values, string>;
  const matches: Validate<string, Values> = (value, values) => value === values.password || differ;
  return (
    <>
      <TextField
        label={labels.password}
        type="password"
        autoComplete="new-password"
        registration={register(password, { validate: byRule(rule), deps: [confirmPassword] })}
        error={errors.password?.message}
      />
      <TextField
        label={labels.confirm}
        type="password"
        autoComplete="new-password"
        registration={register(confirmPassword, { validate: matches })}
        error={showConfirmError ? errors.confirmPassword?.message : undefined}
      />
    </>
  );
}

