import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { accountUiMessages, validationMessages } from '@keystore/contract/messages';
import { emailProblem, normalizeEmail, passwordProblem, usernameProblem } from '@keystore/contract/rules';
import { openAuthDialog } from '../../lib/auth-dialog.ts';
import { byRule, showPasswordRefusal } from '../../lib/form-rules.ts';
import { emailAvailability, usernameAvailability, useRegister } from './api.ts';
import { NewPasswordFields } from './new-password-fields.tsx';
import { TextField } from './text-field.tsx';
import { useAvailability } from './use-availability.ts';
import styles from './auth-modal.module.css';

interface SignupValues {
  username: string;
  email: string;
  password: string;
  confirmPassword: string;
  terms: boolean;
}

const USERNAME_CHECK = {
  normalize: (value: string) => value.trim(),
  problem: usernameProblem,
  ask: usernameAvailability,
  taken: validationMessages.usernameTaken,
  checkFailed: validationMessages.usernameCheckFailed,
};

const EMAIL_CHECK = {
  normalize: normalizeEmail,
  problem: emailProblem,
  ask: emailAvailability,
  taken: validationMessages.emailTaken,
  checkFailed: validationMessages.emailCheckFailed,
};

/** The sign-up dialog (SPEC §5): every rule, the availability of the name and e-mail, the terms; then the code. */
export function SignupDialog() {
  const { register, handleSubmit, setError, control, formState } = useForm<SignupValues>({
    mode: 'onTouched',
    defaultValues: { username: '', email: '', password: '', confirmPassword: '', terms: false },
  });
  const { errors, dirtyFields, isSubmitted, isSubmitting } = formState;
  const [failure, setFailure] = useState<string | null>(null);
  const registerAccount = useRegister();
  const termsErrorId = useId();
  const [username, email] = useWatch({ control, name: ['username', 'email'] });
  const usernameFree = useAvailability('username', username, USERNAME_CHECK);
  const emailFree = useAvailability('email', email, EMAIL_CHECK);

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    const [usernameTaken, emailTaken] = await Promise.all([usernameFree.confirm(values.username), emailFree.confirm(values.email)]);
    if (usernameTaken) setError('username', { message: usernameTaken }, { shouldFocus: true });
    if (emailTaken) setError('email', { message: emailTaken }, { shouldFocus: !usernameTaken });
    if (usernameTaken || emailTaken) return;
    try {
      await registerAccount.mutateAsync({ username: values.username, email: values.email, password: values.password });
      openAuthDialog('confirm', { email: normalizeEmail(values.email) });
    } catch (error) {
      showPasswordRefusal(error, accountUiMessages.registrationFailed, { underPassword: (message) => setError('password', { message }, { shouldFocus: true }), alert: setFailure });
    }
  });

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <TextField
        label="Username"
        autoComplete="username"
        registration={register('username', { validate: byRule(usernameProblem) })}
        error={errors.username?.message ?? usernameFree.message}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        registration={register('email', { validate: byRule(emailProblem) })}
        error={errors.email?.message ?? emailFree.message}
      />
      <NewPasswordFields
        register={register}
        errors={errors}
        labels={{ password: 'Password', confirm: 'Confirm password' }}
        rule={passwordProblem}
        differ={validationMessages.passwordsDiffer}
        showConfirmError={dirtyFields.confirmPassword === true || isSubmitted}
      />
      <div className={styles.field}>
        <label className={styles.check}>
          <input
            type="checkbox"
            aria-invalid={errors.terms ? true : undefined}
            aria-describedby={errors.terms ? termsErrorId : undefined}
            {...register('terms', { validate: (value) => value || validationMessages.termsRequired })}
          />
          <span>
            I accept the{' '}
            <a href="/terms" target="_blank" rel="noopener">
              Terms &amp; Conditions<span className="visually-hidden"> (opens in a new tab)</span>
            </a>
          </span>
        </label>
        <p id={termsErrorId} className={styles.error}>
          {errors.terms?.message}
        </p>
      </div>
      {failure && (
        <p className={styles.alert} role="alert">
          {failure}
        </p>
      )}
      <button type="submit" className={styles.primary} disabled={isSubmitting}>
        {isSubmitting ? 'Creating account…' : 'Sign Up'}
      </button>
      <p className={`${styles.hint} ${styles.center}`}>
        Already have an account?{' '}
        <button type="button" className={styles.link} onClick={() => openAuthDialog('login', { email: normalizeEmail(email) })}>
          Login
        </button>
      </p>
    </form>
  );
}
