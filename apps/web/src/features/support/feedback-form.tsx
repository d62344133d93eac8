import { useEffect, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { SUPPORT_MESSAGE_MAX_LENGTH } from '@keystore/contract/constants';
import { supportMessages } from '@keystore/contract/messages';
import { emailProblem, normalizeEmail } from '@keystore/contract/rules';
import { supportMessageProblem, supportNameProblem, supportTitleProblem } from '@keystore/contract/support-rules';
import { byRule } from '../../lib/form-rules.ts';
import { messageOf } from '../../lib/api.ts';
import { useSession } from '../../lib/session.ts';
import { useSendFeedback } from './api.ts';
import { SupportField } from './support-field.tsx';
import styles from './support-page.module.css';

interface FeedbackValues {
  email: string;
  name: string;
  title: string;
  message: string;
}

const EMPTY: FeedbackValues = { email: '', name: '', title: '', message: '' };

/** The e-mail form (SPEC §2 Support, §5, §8): the contract's rules under each field, a 450-character counter. */
export function FeedbackForm() {
  const { register, handleSubmit, formState, control, reset, getValues, setValue } = useForm<FeedbackValues>({ mode: 'onTouched', defaultValues: EMPTY });
  const signedInEmail = useSession().user?.email;
  const sendFeedback = useSendFeedback();
  const [failure, setFailure] = useState<string | null>(null);
  const [sent, setSent] = useState<string | null>(null);
  const length = useWatch({ control, name: 'message' }).length;

  // A logged-in customer writes from their account's address unless they typed another one.
  useEffect(() => {
    if (signedInEmail && !getValues('email')) setValue('email', signedInEmail);
  }, [signedInEmail, getValues, setValue]);

  const submit = handleSubmit(async (values) => {
    setFailure(null);
    setSent(null);
    try {
      const answer = await sendFeedback.mutateAsync({ ...values, email: normalizeEmail(values.email) });
      setSent(answer.message || supportMessages.feedbackSent);
      reset({ ...EMPTY, email: signedInEmail ?? '' });
    } catch (error) {
      setFailure(messageOf(error, supportMessages.sendFailed));
    }
  });

  return (
    <form className={styles.form} onSubmit={submit} noValidate aria-labelledby="feedback-title">
      <h2 id="feedback-title" className={styles.sectionTitle}>
        Write to us
      </h2>
      <p className={styles.text}>We answer every message within 24 hours.</p>
      <SupportField label="Email" type="email" autoComplete="email" registration={register('email', { validate: byRule(emailProblem) })} error={formState.errors.email?.message} />
      <SupportField label="Name" autoComplete="name" registration={register('name', { validate: byRule(supportNameProblem) })} error={formState.errors.name?.message} />
      <SupportField label="Title of message" registration={register('title', { validate: byRule(supportTitleProblem) })} error={formState.errors.title?.message} />
      <SupportField
        multiline
        label="Message"
        maxLength={SUPPORT_MESSAGE_MAX_LENGTH}
        registration={register('message', { validate: byRule(supportMessageProblem) })}
        error={formState.errors.message?.message}
        aside={
          <span className={styles.counter}>
            {length}/{SUPPORT_MESSAGE_MAX_LENGTH}
          </span>
        }
      />
      {failure && (
        <p className={styles.alert} role="alert">
          {failure}
        </p>
      )}
      {sent && (
        <p className={styles.success} role="status">
          {sent}
        </p>
      )}
      <button type="submit" className={styles.primary} disabled={formState.isSubmitting}>
        {formState.isSubmitting ? 'Sending…' : 'Send a message'}
      </button>
    </form>
  );
}
