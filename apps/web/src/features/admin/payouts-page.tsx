import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import type { Payout } from '@keystore/contract';
import { PAYOUT_REFERENCE_MAX, payoutReferenceProblem } from '@keystore/contract/seller-rules';
import { messageOf } from '../../lib/api.ts';
import { byRule } from '../../lib/form-rules.ts';
import { formatEuro } from '../../lib/money.ts';
import { Modal } from '../../ui/modal.tsx';
import { showToast } from '../../ui/toasts.tsx';
import { AdminPage, ConfirmDialog, AdminTable, Time } from './admin-ui.tsx';
import { ledgerBalanceQuery, payoutsQuery, useMarkPayoutPaid, useRunPayouts } from './api.ts';
import buttons from '../../ui/buttons.module.css';
import dataTable from '../../ui/data-table.module.css';
import styles from './admin.module.css';

const payoutCount = (count: number) => `${count} payout${count === 1 ? '' : 's'}`;

/**
 * Sellers' payouts (issue 23): "Run payouts" makes one for every seller whose available balance reaches
 * the minimum and shows what it made; each is marked paid with its bank reference once the transfer is
 * done. Below, the ledger's trial balance: every account and their total, which is always zero.
 */
export function AdminPayoutsPage() {
  const payouts = useQuery(payoutsQuery());
  const runPayouts = useRunPayouts();
  const [confirmingRun, setConfirmingRun] = useState(false);
  const [lastRun, setLastRun] = useState<Payout[] | null>(null);
  const [paying, setPaying] = useState<Payout | null>(null);

  const run = () =>
    runPayouts.mutate(undefined, {
      onSuccess: ({ created }) => {
        setLastRun(created);
        showToast(created.length === 0 ? 'No payout was due.' : `${payoutCount(created.length)} created.`);
      },
      onError: (error) => showToast(messageOf(error, 'The payouts were not run. Please try again.'), 'error'),
      onSettled: () => setConfirmingRun(false),
    });

  const runButton = (
    <button type="button" className={buttons.primary} onClick={() => setConfirmingRun(true)} disabled={runPayouts.isPending}>
      Run payouts
    </button>
  );
  return (
    <AdminPage title="Payouts" query={payouts} actions={runButton}>
      {lastRun && <RunResult created={lastRun} />}
      {payouts.data && (
        <>
          <AdminTable
            caption="Payouts"
            captionHidden
            columns={['Seller', { label: 'Amount', numeric: true }, 'Status', 'Created', 'Paid', 'Bank reference', 'Action']}
          >
            {payouts.data.map((payout) => (
              <tr key={payout._id}>
                <th scope="row">{payout.sellerName}</th>
                <td className={dataTable.number}>{formatEuro(payout.amount)}</td>
                <td>
                  <span className={styles.badge} data-tone={payout.status === 'paid' ? 'good' : undefined}>
                    {payout.status === 'paid' ? 'Paid' : 'Pending'}
                  </span>
                </td>
                <td>
                  <Time iso={payout.createdAt} />
                </td>
                <td>{payout.paidAt ? <Time iso={payout.paidAt} /> : '—'}</td>
                <td className={`${styles.mono} ${styles.wrap}`}>{payout.reference ?? '—'}</td>
                <td>
                  {payout.status === 'pending' && (
                    <button
                      type="button"
                      className={`${buttons.secondary} ${buttons.small}`}
                      aria-label={`Mark paid: ${formatEuro(payout.amount)} to ${payout.sellerName}`}
                      onClick={() => setPaying(payout)}
                    >
                      Mark paid
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </AdminTable>
          {payouts.data.length === 0 && <p className={`${styles.muted} ${styles.panel}`}>No payouts yet.</p>}
        </>
      )}
      <TrialBalance />
      {confirmingRun && (
        <ConfirmDialog
          title="Run payouts?"
          text="A payout is made for every seller whose available balance reaches the minimum, for all of it; their balances go to the payouts to be transferred. Running it again right after makes none."
          confirmLabel="Run payouts"
          busy={runPayouts.isPending}
          onConfirm={run}
          onClose={() => setConfirmingRun(false)}
        />
      )}
      {paying && <MarkPaidDialog payout={paying} onClose={() => setPaying(null)} />}
    </AdminPage>
  );
}

/** What the last "Run payouts" made, until the page is left. */
function RunResult({ created }: { created: Payout[] }) {
  return (
    <section className={styles.panel} aria-labelledby="payout-run-title">
      <h2 id="payout-run-title" className={styles.subtitle}>
        This run
      </h2>
      <p className={styles.muted}>
        {created.length === 0 ? 'No payout was made: no seller’s available balance reached the minimum.' : `${payoutCount(created.length)} made, to be transferred:`}
      </p>
      {created.length > 0 && (
        <AdminTable caption="Created by this run" captionHidden columns={['Seller', { label: 'Amount', numeric: true }]}>
          {created.map((payout) => (
            <tr key={payout._id}>
              <th scope="row">{payout.sellerName}</th>
              <td className={dataTable.number}>{formatEuro(payout.amount)}</td>
            </tr>
          ))}
        </AdminTable>
      )}
    </section>
  );
}

/** "Mark paid": the bank transfer's reference, required, recorded with the payout and shown to the seller. */
function MarkPaidDialog({ payout, onClose }: { payout: Payout; onClose: () => void }) {
  const markPaid = useMarkPayoutPaid();
  const { register, handleSubmit, formState } = useForm<{ reference: string }>({ defaultValues: { reference: '' } });
  const problem = formState.errors.reference?.message;
  const save = handleSubmit(({ reference }) =>
    markPaid.mutate(
      { id: payout._id, reference: reference.trim() },
      {
        onSuccess: () => showToast(`${formatEuro(payout.amount)} to ${payout.sellerName}: marked paid.`),
        // A 409 says another admin marked it paid meanwhile: the list, fetched again, shows it.
        onError: (error) => showToast(messageOf(error, 'The payout was not marked paid. Please try again.'), 'error'),
        onSettled: onClose,
      },
    ),
  );
  return (
    <Modal title="Mark this payout paid?" busy={markPaid.isPending} onClose={onClose}>
      <form className={styles.page} onSubmit={save} noValidate>
        <p className={styles.muted}>
          The bank transfer of {formatEuro(payout.amount)} to {payout.sellerName} is done. Its reference is recorded with the payout and shown to the seller.
        </p>
        <div className={styles.field}>
          <label htmlFor="payout-reference">Bank reference</label>
          <input
            id="payout-reference"
            maxLength={PAYOUT_REFERENCE_MAX}
            autoComplete="off"
            {...register('reference', { validate: byRule(payoutReferenceProblem) })}
            {...(problem ? { 'aria-invalid': true, 'aria-describedby': 'payout-reference-error' } : {})}
          />
          {problem && (
            <span id="payout-reference-error" className={styles.problem} role="alert">
              {problem}
            </span>
          )}
        </div>
        <div className={buttons.actions}>
          <button type="submit" className={buttons.primary} disabled={markPaid.isPending}>
            Mark paid
          </button>
          <button type="button" className={buttons.secondary} onClick={onClose} disabled={markPaid.isPending}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}

/** The ledger's trial balance: each account's balance and their total, zero when every entry balances. */
function TrialBalance() {
  const balance = useQuery(ledgerBalanceQuery());
  return (
    <section className={styles.page} aria-labelledby="trial-balance-title">
      <h2 id="trial-balance-title" className={styles.subtitle}>
        Ledger
      </h2>
      {balance.isPending && (
        <p className={styles.muted} role="status">
          Loading…
        </p>
      )}
      {balance.isError && (
        <p className={styles.problem} role="alert">
          {messageOf(balance.error, 'Could not load the ledger’s balance.')}
        </p>
      )}
      {balance.data && (
        <>
          <p className={styles.muted}>Every entry moves money between accounts, so their balances always add up to {formatEuro(0)}.</p>
          <AdminTable caption="Trial balance" columns={['Account', { label: 'Balance', numeric: true }]}>
            {balance.data.accounts.map(({ account, balance: amount }) => (
              <tr key={account}>
                <th scope="row" className={styles.mono}>
                  {account}
                </th>
                <td className={dataTable.number}>{formatEuro(amount)}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">
                Total{' '}
                <span className={styles.badge} data-tone={balance.data.total === 0 ? 'good' : 'bad'}>
                  {balance.data.total === 0 ? 'Balanced' : 'Out of balance'}
                </span>
              </th>
              <td className={dataTable.number}>{formatEuro(balance.data.total)}</td>
            </tr>
          </AdminTable>
        </>
      )}
    </section>
  );
}
