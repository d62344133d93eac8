import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import type { Backtest, BlocklistEntry, RiskRule } from '@keystore/contract';
import { BLOCKLIST_KINDS, type BlocklistKind, type RiskSignal } from '@keystore/contract/risk-rules';
import { Link } from 'react-router';
import { messageOf } from '../../lib/api.ts';
import { formatEuro } from '../../lib/money.ts';
import { showToast } from '../../ui/toasts.tsx';
import { AdminPage, AdminTable, ConfirmDialog, Time } from './admin-ui.tsx';
import { blocklistQuery, reviewQueueQuery, riskFiguresQuery, riskRulesQuery, useBacktest, useBlock, useSaveRiskRules, useUnblock } from './api.ts';
import buttons from '../../ui/buttons.module.css';
import dataTable from '../../ui/data-table.module.css';
import styles from './admin.module.css';

/** What each signal means, as the owner reads it. */
const SIGNAL_TEXT: Record<RiskSignal, string> = {
  'card-testing': 'Declines from the address, browser or e-mail: 3 in 10 minutes',
  'provider-risk-elevated': 'The payment provider rates the payment elevated',
  'provider-risk-highest': 'The payment provider rates the payment highest',
  'third-paid-order-24h': 'A third paid order in 24 hours (e-mail or account)',
  'many-copies': 'More than 2 copies of a title (order, or 30 days)',
  'new-buyer-total-60': 'Guest or account under 24 hours: total from €60',
  'new-buyer-total-150': 'Guest or account under 24 hours: total from €150',
  'untrusted-sign-in': 'Password reset, new address or security change in 72 hours',
  'disposable-email': 'Disposable e-mail domain',
  'seller-cash-out': 'Buyer is, or shares an address or browser with, a line’s seller',
  'three-d-secure': '3-D Secure authenticated',
  'loyal-buyer': '3 or more undisputed orders older than 120 days',
  blocklist: 'On the blocklist',
};

const KIND_LABEL: Record<BlocklistKind, string> = { email: 'E-mail', card: 'Card fingerprint', address: 'Address', browser: 'Browser' };

const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

const percent = (ratio: number) => `${(ratio * 100).toFixed(2)} %`;

/**
 * The risk desk (issue 29): this month's disputes and fraud warnings against the card networks'
 * thresholds, the rules in force (a save is a new version, audited), a backtest of the rules as
 * edited over a past period, and the blocklist, whose values are stored hashed (only a hint shows).
 */
export function AdminRiskPage() {
  const rules = useQuery(riskRulesQuery());
  return (
    <AdminPage title="Risk desk" query={rules}>
      <ReviewQueue />
      <MonthFigures />
      {rules.data && <RulesEditor key={rules.data.version} version={rules.data.version} saved={rules.data.rules} />}
      <Blocklist />
    </AdminPage>
  );
}

/** How long until a moment, as the queue shows it: "5 h 20 min", or "now" once past. */
function timeLeft(iso: string, now: number): string {
  const minutes = Math.floor((Date.parse(iso) - now) / 60_000);
  if (minutes <= 0) return 'now';
  return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
}

/**
 * The orders held for review (issue 29), the soonest deadline first: each opens on its order's page,
 * where the owner approves or cancels it. Nobody deciding, the store settles it by its score at the deadline.
 */
function ReviewQueue() {
  const queue = useQuery(reviewQueueQuery());
  const [now] = useState(() => Date.now());
  return (
    <section className={styles.panel} aria-labelledby="risk-queue-title">
      <h2 id="risk-queue-title" className={styles.subtitle}>
        Review queue
      </h2>
      {!queue.data ? null : queue.data.length === 0 ? (
        <p className={styles.muted}>No order is waiting for review.</p>
      ) : (
        <AdminTable caption="Orders waiting for review" captionHidden columns={['Order', 'Buyer', { label: 'Amount', numeric: true }, { label: 'Score', numeric: true }, 'Why', 'Decided by the store in']}>
          {queue.data.map((entry) => (
            <tr key={entry.orderId}>
              <th scope="row">
                <Link to={`/admin/orders/${encodeURIComponent(entry.orderId)}`} className={styles.link} aria-label={`Review order ${entry.orderId}`}>
                  {entry.orderId}
                </Link>
              </th>
              <td>{entry.email ?? '—'}</td>
              <td className={dataTable.number}>{formatEuro(entry.amount)}</td>
              <td className={dataTable.number}>
                {entry.score}
                {entry.cancelRecommended && <span className={styles.badge}>Cancel recommended</span>}
              </td>
              <td>{entry.facts.map((fact) => fact.note).join('; ') || '—'}</td>
              <td>{timeLeft(entry.decideBy, now)}</td>
            </tr>
          ))}
        </AdminTable>
      )}
    </section>
  );
}

function MonthFigures() {
  const figures = useQuery(riskFiguresQuery());
  if (!figures.data) return null;
  const { month, disputes, fraudWarnings, sales, ratio, thresholds, alarm } = figures.data;
  return (
    <section className={styles.panel} aria-labelledby="risk-month-title">
      <h2 id="risk-month-title" className={styles.subtitle}>
        Disputes and fraud warnings, {month}
      </h2>
      <p>
        {disputes} disputes and {fraudWarnings} fraud warnings over {sales} sales: <strong>{percent(ratio)}</strong>{' '}
        <span className={styles.badge} data-tone={alarm ? 'bad' : 'good'}>
          {alarm ? 'Alarm' : 'Within limits'}
        </span>
      </p>
      <p className={styles.muted}>
        The store’s alarm rings from {percent(thresholds.alarm)}; the card networks call {percent(thresholds.excessive)} excessive.
      </p>
    </section>
  );
}

function RulesEditor({ version, saved }: { version: number; saved: RiskRule[] }) {
  // A saved version remounts the editor (keyed by version), so its edits start from what was saved.
  const [rules, setRules] = useState(saved);
  const save = useSaveRiskRules();
  const changed = JSON.stringify(rules) !== JSON.stringify(saved);
  const edit = (id: string, patch: Partial<RiskRule>) => setRules((current) => current.map((rule) => (rule.id === id ? { ...rule, ...patch } : rule)));
  const submit = () =>
    save.mutate(rules, {
      onSuccess: (next) => showToast(`Rules saved as version ${next.version}.`),
      onError: (error) => showToast(messageOf(error, 'The rules were not saved. Please try again.'), 'error'),
    });
  return (
    <section className={styles.panel} aria-labelledby="risk-rules-title">
      <h2 id="risk-rules-title" className={styles.subtitle}>
        Rules, version {version}
      </h2>
      <p className={styles.muted}>A score is the sum of the weights of the signals that fired: below 30 accepted, from 30 held for review, from 70 with cancel recommended. A hard signal refuses the payment.</p>
      <AdminTable caption={`Risk rules, version ${version}`} captionHidden columns={['Signal', { label: 'Weight', numeric: true }, 'Hard']}>
        {rules.map((rule) => (
          <tr key={rule.id}>
            <th scope="row">{SIGNAL_TEXT[rule.signal]}</th>
            <td className={dataTable.number}>
              <input
                type="number"
                min={-100}
                max={100}
                step={1}
                className={styles.numberInput}
                aria-label={`Weight: ${SIGNAL_TEXT[rule.signal]}`}
                value={rule.weight}
                onChange={(event) => edit(rule.id, { weight: Number(event.target.value) })}
              />
            </td>
            <td>
              <input type="checkbox" aria-label={`Hard: ${SIGNAL_TEXT[rule.signal]}`} checked={rule.hard} onChange={(event) => edit(rule.id, { hard: event.target.checked })} />
            </td>
          </tr>
        ))}
      </AdminTable>
      <p>
        <button type="button" className={buttons.primary} disabled={!changed || save.isPending} onClick={submit}>
          Save as version {version + 1}
        </button>{' '}
        <button type="button" className={buttons.secondary} disabled={!changed} onClick={() => setRules(saved)}>
          Undo changes
        </button>
      </p>
      <BacktestForm rules={rules} />
    </section>
  );
}

function BacktestForm({ rules }: { rules: RiskRule[] }) {
  const [from, setFrom] = useState(() => dayOf(Date.now() - 30 * 86_400_000));
  const [to, setTo] = useState(() => dayOf(Date.now()));
  const [result, setResult] = useState<Backtest | null>(null);
  const backtest = useBacktest();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    backtest.mutate(
      { rules, from: `${from}T00:00:00.000Z`, to: `${to}T23:59:59.999Z` },
      { onSuccess: setResult, onError: (error) => showToast(messageOf(error, 'The backtest did not run. Please try again.'), 'error') },
    );
  };
  return (
    <form onSubmit={submit} aria-labelledby="risk-backtest-title">
      <h3 id="risk-backtest-title" className={styles.subtitle}>
        Backtest these rules
      </h3>
      <label>
        From <input type="date" value={from} max={to} onChange={(event) => setFrom(event.target.value)} required />
      </label>{' '}
      <label>
        To <input type="date" value={to} min={from} onChange={(event) => setTo(event.target.value)} required />
      </label>{' '}
      <button type="submit" className={buttons.secondary} disabled={backtest.isPending}>
        Run backtest
      </button>
      {result && (
        <p role="status">
          Of {result.orders} orders assessed, these rules would hold {result.held}: {result.caught} later proved fraud, {result.delayed} were good sales delayed.{' '}
          {result.changed.length} decisions would change.
        </p>
      )}
    </form>
  );
}

function Blocklist() {
  const entries = useQuery(blocklistQuery());
  const block = useBlock();
  const unblock = useUnblock();
  const [kind, setKind] = useState<BlocklistKind>('email');
  const [value, setValue] = useState('');
  const [note, setNote] = useState('');
  const [removing, setRemoving] = useState<BlocklistEntry | null>(null);
  const add = (event: FormEvent) => {
    event.preventDefault();
    block.mutate(
      { kind, value, note },
      {
        onSuccess: () => {
          setValue('');
          setNote('');
          showToast('Added to the blocklist.');
        },
        onError: (error) => showToast(messageOf(error, 'Not added. Please try again.'), 'error'),
      },
    );
  };
  return (
    <section className={styles.panel} aria-labelledby="risk-blocklist-title">
      <h2 id="risk-blocklist-title" className={styles.subtitle}>
        Blocklist
      </h2>
      <form onSubmit={add} aria-label="Block">
        <label>
          Kind{' '}
          <select value={kind} onChange={(event) => setKind(event.target.value as BlocklistKind)}>
            {BLOCKLIST_KINDS.map((option) => (
              <option key={option} value={option}>
                {KIND_LABEL[option]}
              </option>
            ))}
          </select>
        </label>{' '}
        <label>
          Value <input value={value} onChange={(event) => setValue(event.target.value)} required maxLength={320} />
        </label>{' '}
        <label>
          Note <input value={note} onChange={(event) => setNote(event.target.value)} maxLength={500} />
        </label>{' '}
        <button type="submit" className={buttons.primary} disabled={block.isPending}>
          Block
        </button>
      </form>
      {entries.data && entries.data.length === 0 && <p className={styles.muted}>Nothing is blocked.</p>}
      {entries.data && entries.data.length > 0 && (
        <AdminTable caption="Blocked" captionHidden columns={['Kind', 'Value', 'Note', 'Added', 'Action']}>
          {entries.data.map((entry) => (
            <tr key={entry._id}>
              <td>{KIND_LABEL[entry.kind]}</td>
              <th scope="row" className={styles.mono}>
                {entry.hint}
              </th>
              <td className={styles.wrap}>{entry.note || '—'}</td>
              <td>
                <Time iso={entry.createdAt} />
              </td>
              <td>
                <button type="button" className={`${buttons.secondary} ${buttons.small}`} aria-label={`Remove ${entry.hint}`} onClick={() => setRemoving(entry)}>
                  Remove
                </button>
              </td>
            </tr>
          ))}
        </AdminTable>
      )}
      {removing && (
        <ConfirmDialog
          title="Remove from the blocklist?"
          text={`${KIND_LABEL[removing.kind]} ${removing.hint} may buy again.`}
          confirmLabel="Remove"
          busy={unblock.isPending}
          onConfirm={() => unblock.mutate(removing._id, { onSettled: () => setRemoving(null), onError: (error) => showToast(messageOf(error, 'Not removed. Please try again.'), 'error') })}
          onClose={() => setRemoving(null)}
        />
      )}
    </section>
  );
}
