import { useForm } from 'react-hook-form';
import type { SellerApplication } from '@keystore/contract';
import { validationMessages } from '@keystore/contract/messages';
import { emailProblem, type Problem } from '@keystore/contract/rules';
import { countryProblem, sellerMessages, sellerNameProblem } from '@keystore/contract/seller-rules';
import { messageOf } from '../../lib/api.ts';
import { byRule } from '../../lib/form-rules.ts';
import { useApply } from './api.ts';
import buttons from '../../ui/buttons.module.css';
import styles from './seller.module.css';

/**
 * A business address, as sellerApplicationSchema checks it: any the shared e-mail rule finds well-formed,
 * not only the big providers a customer's must be at. (Not in seller-rules.ts: rules.ts would bring its
 * word filter to the storefront's pages that import seller-rules.ts for sellerMessages.)
 */
function contactEmailProblem(value: string): Problem {
  const problem = emailProblem(value);
  return problem === undefined || problem === validationMessages.emailProvider ? undefined : sellerMessages.contactEmailInvalid;
}

const FIELDS = [
  { name: 'name', label: 'Seller name', type: 'text', autoComplete: 'organization', rule: sellerNameProblem },
  { name: 'contactEmail', label: 'Contact e-mail', type: 'email', autoComplete: 'email', rule: contactEmailProblem },
  { name: 'country', label: 'Country (two-letter code)', type: 'text', autoComplete: 'country', rule: countryProblem },
] as const;

/** A signed-in customer applies to sell (POST /api/sellers); the owner approves in the back office. */
export function ApplyForm() {
  const apply = useApply();
  const { register, handleSubmit, formState } = useForm<SellerApplication>({ defaultValues: { name: '', contactEmail: '', country: '' } });
  const submit = handleSubmit((application) =>
    apply.mutate({ name: application.name.trim(), contactEmail: application.contactEmail.trim(), country: application.country.trim().toUpperCase() }),
  );
  return (
    <form className={`${styles.panel} ${styles.stack}`} onSubmit={submit} noValidate aria-labelledby="seller-apply-title">
      <h2 id="seller-apply-title" className={styles.subtitle}>
        Apply to sell
      </h2>
      <p className={styles.muted}>Sell your game keys to Keystore’s customers. The store takes a commission on each key sold.</p>
      {FIELDS.map(({ name, label, type, autoComplete, rule }) => {
        const problem = formState.errors[name]?.message;
        return (
          <div key={name} className={styles.field}>
            <label htmlFor={`seller-${name}`}>{label}</label>
            <input
              id={`seller-${name}`}
              type={type}
              autoComplete={autoComplete}
              {...register(name, { validate: byRule(rule) })}
              {...(problem ? { 'aria-invalid': true, 'aria-describedby': `seller-${name}-error` } : {})}
            />
            {problem && (
              <span id={`seller-${name}-error`} className={styles.problem}>
                {problem}
              </span>
            )}
          </div>
        );
      })}
      {apply.isError && (
        <p className={styles.problem} role="alert">
          {messageOf(apply.error, 'Your application could not be sent. Please try again.')}
        </p>
      )}
      <div className={buttons.actions}>
        <button type="submit" className={buttons.primary} disabled={apply.isPending}>
          {apply.isPending ? 'Sending…' : 'Apply'}
        </button>
      </div>
    </form>
  );
}
