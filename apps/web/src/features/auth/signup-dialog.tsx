import { useId, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { accountUiMessages, validationMessages } from '@keystore/contract/messages';
import { emailProblem, normalizeEmail, passwordProblem, usernameProblem } from '@keystore/contract/rules';
import { openAuthDialog } from '../../lib/auth-dialog.ts';
import { messageOf } from '../../lib/api.ts';
import { emailAvailability, register as registerAccount, usernameAvailability } from './auth-api.ts';
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
      await registerAccount(values.username, values.email, values.password);
      openAuthDialog('confirm', { email: normalizeEmail(values.email) });
    } catch (error) {
      const message = messageOf(error, accountUiMessages.registrationFailed);
      // The one password rule only the server checks: shown under the field like the others.
      if (message === validationMessages.passwordCommon) setError('password', { message }, { shouldFocus: true });
      else setFailure(message);
    }
  });

  return (
    <form className={styles.form} onSubmit={submit} noValidate>
      <TextField
        label="Username"
        autoComplete="username"
        registration={register('username', { validate: (value) => usernameProblem(value) ?? true })}
        error={errors.username?.message ?? usernameFree.message}
      />
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        registration={register('email', { validate: (value) => emailProblem(value) ?? true })}
        error={errors.email?.message ?? emailFree.message}
      />
      <TextField
        label="Password"
        type="password"
        autoComplete="new-password"
        registration={register('password', { validate: (value) => passwordProblem(value) ?? true, deps: ['confirmPassword'] })}
        error={errors.password?.message}
      />
      <TextField
        label="Confirm password"
        type="password"
        autoComplete="new-password"
        registration={register('confirmPassword', {
          validate: (value, values) => value === values.password || validationMessages.passwordsDiffer,
        })}
        // Re-checked as the password changes, but only shown once the user has typed here or submitted.
        error={dirtyFields.confirmPassword || isSubmitted ? errors.confirmPassword?.message : undefined}
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
