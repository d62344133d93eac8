import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { GUEST_LIMIT_MAX, guestLimitProblem, MARKUP_PERCENT_MAX, MARKUP_PERCENT_MIN, markupProblem } from '@keystore/contract/admin-rules';
import { COMMISSION_PERCENT_MAX, commissionFixedProblem, commissionPercentProblem, euroCents } from '@keystore/contract/seller-rules';
import { messageOf } from '../../lib/api.ts';
import { byRule } from '../../lib/form-rules.ts';
import { SCORE_FLOOR_AFTER, SCORE_WINDOW_DAYS, scoreFloorProblem } from '@keystore/contract/seller-delivery-rules';
import { showToast } from '../../ui/toasts.tsx';
import { settingsQuery, usePatchSettings } from './api.ts';
import buttons from '../../ui/buttons.module.css';
import styles from './admin.module.css';

// The store's settings on the catalogue page (GET/PATCH /api/admin/settings), one form each.

/** The store's settings side by side: the markup over the supplier, the sellers' default commission, their score floor, and what a guest may buy. */
export function StoreSettings() {
  const settings = useQuery(settingsQuery());
  if (!settings.data) return null;
  return (
    <div className={styles.grid}>
      <MarkupFields markupPercent={settings.data.markupPercent} />
      <CommissionFields percent={settings.data.sellerCommissionPercent} fixed={settings.data.sellerCommissionFixed} />
      <ScoreFloorFields floor={settings.data.sellerScoreFloor} />
      <GuestLimitFields maxOrder={settings.data.guestMaxOrder} maxCopies={settings.data.guestMaxCopies} ordersPerDay={settings.data.guestOrdersPerDay} />
      <SecondFactorFields admins={settings.data.secondFactorForAdmins} sellers={settings.data.secondFactorForSellers} />
    </div>
  );
}

function MarkupFields({ markupPercent }: { markupPercent: number }) {
  const patch = usePatchSettings();
  const { register, handleSubmit, formState } = useForm<{ markup: string }>({ defaultValues: { markup: String(markupPercent) } });
  const problem = formState.errors.markup?.message;
  const save = handleSubmit(({ markup }) =>
    patch.mutate(
      { markupPercent: Number(markup) },
      {
        onSuccess: () => showToast('The markup applies from the next sync.'),
        onError: (error) => showToast(messageOf(error, 'The markup was not saved. Please try again.'), 'error'),
      },
    ),
  );
  return (
    <form className={styles.panel} onSubmit={save} noValidate aria-labelledby="markup-title">
      <h2 id="markup-title" className={styles.subtitle}>
        Markup
      </h2>
      <div className={styles.filters}>
      <div className={styles.field}>
        <label htmlFor="markup">
          Markup over the supplier’s price ({MARKUP_PERCENT_MIN}–{MARKUP_PERCENT_MAX} %)
        </label>
        <input
          id="markup"
          type="number"
          inputMode="decimal"
          step="0.1"
          {...register('markup', { validate: byRule(markupProblem) })}
          {...(problem ? { 'aria-invalid': true, 'aria-describedby': 'markup-error' } : {})}
        />
        {problem && (
          <span id="markup-error" className={styles.problem} role="alert">
            {problem}
          </span>
        )}
      </div>
        <button type="submit" className={buttons.primary} disabled={patch.isPending}>
          Save markup
        </button>
      </div>
    </form>
  );
}

/** The commission every seller pays unless the owner set one for it (Sellers page): a percent of the net price plus a fixed amount. */
function CommissionFields({ percent, fixed }: { percent: number; fixed: number }) {
  const patch = usePatchSettings();
  const { register, handleSubmit, formState } = useForm<{ percent: string; fixed: string }>({ defaultValues: { percent: String(percent), fixed: fixed.toFixed(2) } });
  const { errors } = formState;
  const save = handleSubmit((fields) =>
    patch.mutate(
      { sellerCommissionPercent: Number(fields.percent.trim()), sellerCommissionFixed: euroCents(fields.fixed)! / 100 },
      {
        onSuccess: () => showToast('The default commission applies at once to sellers without one of their own.'),
        onError: (error) => showToast(messageOf(error, 'The commission was not saved. Please try again.'), 'error'),
      },
    ),
  );
  return (
    <form className={styles.panel} onSubmit={save} noValidate aria-labelledby="commission-title">
      <h2 id="commission-title" className={styles.subtitle}>
        Sellers’ default commission
      </h2>
      <div className={styles.filters}>
        <div className={styles.field}>
          <label htmlFor="commission-percent">Percent of the net price (0–{COMMISSION_PERCENT_MAX} %)</label>
          <input
            id="commission-percent"
            className={styles.price}
            type="number"
            inputMode="decimal"
            step="0.01"
            {...register('percent', { validate: byRule(commissionPercentProblem) })}
            {...(errors.percent ? { 'aria-invalid': true, 'aria-describedby': 'commission-percent-error' } : {})}
          />
          {errors.percent && (
            <span id="commission-percent-error" className={styles.problem} role="alert">
              {errors.percent.message}
            </span>
          )}
        </div>
        <div className={styles.field}>
          <label htmlFor="commission-fixed">Plus per key (€)</label>
          <input
            id="commission-fixed"
            className={styles.price}
            type="number"
            inputMode="decimal"
            step="0.01"
            min="0"
            {...register('fixed', { validate: byRule(commissionFixedProblem) })}
            {...(errors.fixed ? { 'aria-invalid': true, 'aria-describedby': 'commission-fixed-error' } : {})}
          />
          {errors.fixed && (
            <span id="commission-fixed-error" className={styles.problem} role="alert">
              {errors.fixed.message}
            </span>
          )}
        </div>
        <button type="submit" className={buttons.primary} disabled={patch.isPending}>
          Save commission
        </button>
      </div>
    </form>
  );
}

/** The score below which a seller with enough deliveries leaves the store (issue 24); its offers come back once it is above again. */
function ScoreFloorFields({ floor }: { floor: number }) {
  const patch = usePatchSettings();
  const { register, handleSubmit, formState } = useForm<{ floor: string }>({ defaultValues: { floor: String(floor) } });
  const problem = formState.errors.floor?.message;
  const save = handleSubmit((fields) =>
    patch.mutate(
      { sellerScoreFloor: Number(fields.floor.trim()) },
      {
        onSuccess: (settings) => showToast(`Sellers scoring below ${settings.sellerScoreFloor} leave the store at once.`),
        onError: (error) => showToast(messageOf(error, 'The score floor was not saved. Please try again.'), 'error'),
      },
    ),
  );
  return (
    <form className={styles.panel} onSubmit={save} noValidate aria-labelledby="score-floor-title">
      <h2 id="score-floor-title" className={styles.subtitle}>
        Seller score floor
      </h2>
      <p className={styles.muted}>
        A seller with {SCORE_FLOOR_AFTER} deliveries or more in {SCORE_WINDOW_DAYS} days whose score falls below it leaves the store until it is above again.
      </p>
      <div className={styles.filters}>
        <div className={styles.field}>
          <label htmlFor="score-floor">Seller score floor (0–100)</label>
          <input
            id="score-floor"
            className={styles.price}
            type="number"
            inputMode="numeric"
            step="1"
            min="0"
            max="100"
            {...register('floor', { validate: byRule(scoreFloorProblem) })}
            {...(problem ? { 'aria-invalid': true, 'aria-describedby': 'score-floor-error' } : {})}
          />
          {problem && (
            <span id="score-floor-error" className={styles.problem} role="alert">
              {problem}
            </span>
          )}
        </div>
        <button type="submit" className={buttons.primary} disabled={patch.isPending}>
          Save floor
        </button>
      </div>
    </form>
  );
}

/** What a visitor may buy without an account (issue 29): beyond it, the store asks them to sign in. */
function GuestLimitFields({ maxOrder, maxCopies, ordersPerDay }: { maxOrder: number; maxCopies: number; ordersPerDay: number }) {
  const patch = usePatchSettings();
  const { register, handleSubmit, formState } = useForm<{ maxOrder: string; maxCopies: string; ordersPerDay: string }>({
    defaultValues: { maxOrder: String(maxOrder), maxCopies: String(maxCopies), ordersPerDay: String(ordersPerDay) },
  });
  const { errors } = formState;
  const save = handleSubmit((fields) =>
    patch.mutate(
      { guestMaxOrder: Number(fields.maxOrder.trim()), guestMaxCopies: Number(fields.maxCopies.trim()), guestOrdersPerDay: Number(fields.ordersPerDay.trim()) },
      {
        onSuccess: () => showToast('The guest limits apply to the next guest order.'),
        onError: (error) => showToast(messageOf(error, 'The guest limits were not saved. Please try again.'), 'error'),
      },
    ),
  );
  const fields = [
    { name: 'maxOrder', label: `Most a guest order may cost (€, 0–${GUEST_LIMIT_MAX.maxOrderEuro})`, max: GUEST_LIMIT_MAX.maxOrderEuro },
    { name: 'maxCopies', label: `Copies of one game per guest order (0–${GUEST_LIMIT_MAX.maxCopies})`, max: GUEST_LIMIT_MAX.maxCopies },
    { name: 'ordersPerDay', label: `Guest orders per e-mail in 24 hours (0–${GUEST_LIMIT_MAX.ordersPerDay})`, max: GUEST_LIMIT_MAX.ordersPerDay },
  ] as const;
  return (
    <form className={styles.panel} onSubmit={save} noValidate aria-labelledby="guest-limits-title">
      <h2 id="guest-limits-title" className={styles.subtitle}>
        Guest checkout
      </h2>
      <p className={styles.muted}>Visitors may buy without an account up to these limits; beyond them the store asks them to sign in.</p>
      <div className={styles.filters}>
        {fields.map(({ name, label, max }) => (
          <div key={name} className={styles.field}>
            <label htmlFor={`guest-${name}`}>{label}</label>
            <input
              id={`guest-${name}`}
              className={styles.price}
              type="number"
              inputMode="numeric"
              step="1"
              min="0"
              max={max}
              {...register(name, { validate: byRule((value) => guestLimitProblem(value, max)) })}
              {...(errors[name] ? { 'aria-invalid': true, 'aria-describedby': `guest-${name}-error` } : {})}
            />
            {errors[name] && (
              <span id={`guest-${name}-error`} className={styles.problem} role="alert">
                {errors[name].message}
              </span>
            )}
          </div>
        ))}
        <button type="submit" className={buttons.primary} disabled={patch.isPending}>
          Save guest limits
        </button>
      </div>
    </form>
  );
}

/** Whether admins and sellers must have a second factor (issue 30): one without is asked to set up an authenticator app at sign-in. */
function SecondFactorFields({ admins, sellers }: { admins: boolean; sellers: boolean }) {
  const patch = usePatchSettings();
  const set = (change: { secondFactorForAdmins?: boolean; secondFactorForSellers?: boolean }) =>
    patch.mutate(change, {
      onSuccess: () => showToast('Saved: it applies from the next sign-in.'),
      onError: (error) => showToast(messageOf(error, 'The setting was not saved. Please try again.'), 'error'),
    });
  return (
    <section className={styles.panel} aria-labelledby="second-factor-title">
      <h2 id="second-factor-title" className={styles.subtitle}>
        Second factor
      </h2>
      <p className={styles.muted}>An account that must have one and has none is asked to set up an authenticator app at its next sign-in, before anything else.</p>
      <label className={styles.check}>
        <input type="checkbox" checked={admins} disabled={patch.isPending} onChange={(event) => set({ secondFactorForAdmins: event.target.checked })} />
        Require it of admins
      </label>
      <label className={styles.check}>
        <input type="checkbox" checked={sellers} disabled={patch.isPending} onChange={(event) => set({ secondFactorForSellers: event.target.checked })} />
        Require it of sellers
      </label>
    </section>
  );
}
