import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import type { AdminSeller, AdminSellerPatch, SellerStatus } from '@keystore/contract';
import {
  COMMISSION_PERCENT_MAX,
  commissionFixedProblem,
  commissionPercentProblem,
  euroCents,
  HOLD_DAYS_MAX,
  holdDaysProblem,
  SELLER_STATUSES,
} from '@keystore/contract/seller-rules';
import { messageOf } from '../../lib/api.ts';
import { byRule } from '../../lib/form-rules.ts';
import { formatEuro } from '../../lib/money.ts';
import { Modal } from '../../ui/modal.tsx';
import { showToast } from '../../ui/toasts.tsx';
import { AdminPage, ConfirmDialog, AdminTable, Pager, Time } from './admin-ui.tsx';
import { sellersQuery, usePatchSeller } from './api.ts';
import buttons from '../../ui/buttons.module.css';
import dataTable from '../../ui/data-table.module.css';
import styles from './admin.module.css';

const isStatus = (value: string | null): value is SellerStatus => SELLER_STATUSES.some((status) => status === value);
const STATUS_LABELS: Record<SellerStatus, string> = { pending: 'Pending', active: 'Active', suspended: 'Suspended' };
const STATUS_TONES: Record<SellerStatus, 'good' | 'bad' | undefined> = { pending: undefined, active: 'good', suspended: 'bad' };
const BUTTON_CLASSES = { primary: buttons.primary, secondary: buttons.secondary, danger: buttons.danger };

/** A seller's change waiting for the confirm dialog. */
interface Change {
  seller: AdminSeller;
  patch: AdminSellerPatch;
  title: string;
  text: string;
  done: string;
}

/** "10 %", "8.5 % + €0.30": a commission as the back office writes it. */
function commissionText({ percent, fixed }: { percent: number; fixed: number }): string {
  return `${percent} %${fixed > 0 ? ` + ${formatEuro(fixed)}` : ''}`;
}

/** The status change a seller's row offers: approve an applicant, suspend an active seller, reactivate a suspended one. */
function statusChange(seller: AdminSeller): Change & { label: string; tone: 'primary' | 'secondary' | 'danger' } {
  const { name } = seller;
  if (seller.status === 'pending') {
    return {
      seller,
      label: 'Approve',
      tone: 'primary',
      patch: { status: 'active' },
      title: `Approve ${name}?`,
      text: `${name} can offer games and upload keys; its offers with keys are shown in the store.`,
      done: `${name} was approved.`,
    };
  }
  if (seller.status === 'active') {
    return {
      seller,
      label: 'Suspend',
      tone: 'danger',
      patch: { status: 'suspended' },
      title: `Suspend ${name}?`,
      text: `${name}’s offers leave the store at once, and it can no longer change its offers or keys until reactivated.`,
      done: `${name} was suspended.`,
    };
  }
  return {
    seller,
    label: 'Reactivate',
    tone: 'secondary',
    patch: { status: 'active' },
    title: `Reactivate ${name}?`,
    text: `${name} can sell again; its offers with keys are shown in the store again.`,
    done: `${name} was reactivated.`,
  };
}

/**
 * The marketplace's sellers (issues 23, 24), by status and name or contact e-mail, with their score and
 * the deliveries it counts (the house has none): approve an applicant,
 * suspend or reactivate a seller, and set its commission (or the store's default) and hold days, each
 * change confirmed first.
 */
export function AdminSellersPage() {
  const [params, setParams] = useSearchParams();
  const wanted = params.get('status');
  const status = isStatus(wanted) ? wanted : undefined;
  const q = params.get('q') ?? '';
  const page = Math.max(1, Number(params.get('page')) || 1);
  const sellers = useQuery(sellersQuery(status, q, page));
  const patch = usePatchSeller();
  const [editing, setEditing] = useState<AdminSeller | null>(null);
  const [asking, setAsking] = useState<Change | null>(null);

  /** Shows the list as `next` changes it: a filter that changes starts again at page 1. */
  const show = (next: { status?: SellerStatus | undefined; q?: string; page?: number }) => {
    const nextStatus = 'status' in next ? next.status : status;
    const nextQ = next.q ?? q;
    const nextPage = next.page ?? 1;
    const search = new URLSearchParams();
    if (nextStatus) search.set('status', nextStatus);
    if (nextQ) search.set('q', nextQ);
    if (nextPage > 1) search.set('page', String(nextPage));
    setParams(search);
  };
  const search = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    show({ q: String(new FormData(event.currentTarget).get('q') ?? '').trim() });
  };
  const run = (change: Change) =>
    patch.mutate(
      { id: change.seller._id, patch: change.patch },
      {
        onSuccess: () => showToast(change.done),
        onError: (error) => showToast(messageOf(error, 'The change failed. Please try again.'), 'error'),
        onSettled: () => setAsking(null),
      },
    );

  const filter = (
    <div className={styles.field}>
      <label htmlFor="sellers-status">Show</label>
      <select
        id="sellers-status"
        value={status ?? ''}
        onChange={(event) => show({ status: isStatus(event.target.value) ? event.target.value : undefined })}
      >
        <option value="">All</option>
        {SELLER_STATUSES.map((option) => (
          <option key={option} value={option}>
            {STATUS_LABELS[option]}
          </option>
        ))}
      </select>
    </div>
  );
  return (
    <AdminPage title="Sellers" actions={filter}>
      <form key={q} className={styles.filters} onSubmit={search} role="search" aria-label="Find sellers">
        <div className={styles.field}>
          <label htmlFor="sellers-q">Search</label>
          <input id="sellers-q" name="q" type="search" defaultValue={q} placeholder="Name or contact e-mail" />
        </div>
        <button type="submit" className={buttons.primary}>
          Search
        </button>
      </form>
      {sellers.isPending && (
        <p className={styles.muted} role="status">
          Loading…
        </p>
      )}
      {sellers.isError && (
        <p className={styles.problem} role="alert">
          {messageOf(sellers.error, 'Could not load the sellers. Please try again.')}
        </p>
      )}
      {sellers.data && (
        <>
          <AdminTable
            caption="Sellers"
            captionHidden
            busy={sellers.isPlaceholderData}
            columns={[
              'Seller',
              'Status',
              'Contact',
              'Commission',
              { label: 'Hold days', numeric: true },
              { label: 'Offers', numeric: true },
              { label: 'Keys in stock', numeric: true },
              { label: 'Score', numeric: true },
              { label: 'On hold', numeric: true },
              { label: 'Available', numeric: true },
              'Joined',
              'Actions',
            ]}
          >
            {sellers.data.items.map((seller) => (
              <SellerRow key={seller._id} seller={seller} busy={patch.isPending} onAsk={setAsking} onEdit={setEditing} />
            ))}
          </AdminTable>
          {sellers.data.items.length === 0 && <p className={`${styles.muted} ${styles.panel}`}>No seller matches.</p>}
          <Pager page={sellers.data.page} pageSize={sellers.data.pageSize} total={sellers.data.total} onPage={(next) => show({ page: next })} />
        </>
      )}
      {editing && (
        <TermsDialog
          seller={editing}
          onClose={() => setEditing(null)}
          onReview={(change) => {
            setEditing(null);
            setAsking(change);
          }}
        />
      )}
      {asking && (
        <ConfirmDialog title={asking.title} text={asking.text} confirmLabel="Confirm" busy={patch.isPending} onConfirm={() => run(asking)} onClose={() => setAsking(null)} />
      )}
    </AdminPage>
  );
}

interface SellerRowProps {
  seller: AdminSeller;
  busy: boolean;
  onAsk: (change: Change) => void;
  onEdit: (seller: AdminSeller) => void;
}

function SellerRow({ seller, busy, onAsk, onEdit }: SellerRowProps) {
  const change = statusChange(seller);
  return (
    <tr>
      <th scope="row">
        {seller.name}{' '}
        {seller.house && (
          <span className={styles.badge} data-tone="good">
            House
          </span>
        )}
      </th>
      <td>
        <span className={styles.badge} data-tone={STATUS_TONES[seller.status]}>
          {STATUS_LABELS[seller.status]}
        </span>
      </td>
      <td className={styles.wrap}>
        {seller.contactEmail} <span className={styles.muted}>{seller.country}</span>
      </td>
      <td>
        {seller.house ? (
          '—'
        ) : (
          <>
            {commissionText(seller.commission)}
            {!seller.customCommission && <span className={styles.muted}> (store default)</span>}
          </>
        )}
      </td>
      <td className={dataTable.number}>{seller.holdDays}</td>
      <td className={dataTable.number}>{seller.offers}</td>
      <td className={dataTable.number}>{seller.keysInStock}</td>
      <td className={dataTable.number}>
        {seller.house ? (
          '—'
        ) : (
          <>
            {seller.score.value}
            <span className={`${styles.hint} ${styles.nowrap}`}>
              {seller.score.deliveries} deliver{seller.score.deliveries === 1 ? 'y' : 'ies'}
            </span>
          </>
        )}
      </td>
      <td className={dataTable.number}>{formatEuro(seller.balance.held)}</td>
      <td className={dataTable.number}>{formatEuro(seller.balance.available)}</td>
      <td>
        <Time iso={seller.createdAt} />
      </td>
      <td>
        {seller.house ? (
          <span className={styles.muted}>The supplier’s feed</span>
        ) : (
          <div className={buttons.actions}>
            <button type="button" className={`${BUTTON_CLASSES[change.tone]} ${buttons.small}`} disabled={busy} aria-label={`${change.label} ${seller.name}`} onClick={() => onAsk(change)}>
              {change.label}
            </button>
            <button type="button" className={`${buttons.secondary} ${buttons.small}`} disabled={busy} aria-label={`Edit terms of ${seller.name}`} onClick={() => onEdit(seller)}>
              Edit terms
            </button>
          </div>
        )}
      </td>
    </tr>
  );
}

interface TermsFields {
  commission: 'default' | 'custom';
  percent: string;
  fixed: string;
  holdDays: string;
}

/**
 * A seller's terms: its own commission (a percent plus a fixed euro amount) or the store's default, and
 * the days a sale's money is held. Checked as the server checks them, then confirmed in the next dialog.
 */
function TermsDialog({ seller, onClose, onReview }: { seller: AdminSeller; onClose: () => void; onReview: (change: Change) => void }) {
  const { register, handleSubmit, control, formState } = useForm<TermsFields>({
    defaultValues: {
      commission: seller.customCommission ? 'custom' : 'default',
      percent: String(seller.commission.percent),
      fixed: seller.commission.fixed.toFixed(2),
      holdDays: String(seller.holdDays),
    },
  });
  const custom = useWatch({ control, name: 'commission' }) === 'custom';
  const { errors } = formState;
  const onlyWhenCustom = (rule: (value: string) => string | undefined) => (value: string, fields: TermsFields) =>
    fields.commission === 'custom' ? byRule(rule)(value) : true;

  const review = handleSubmit((fields) => {
    const holdDays = Number(fields.holdDays.trim());
    const commission = fields.commission === 'custom' ? { percent: Number(fields.percent.trim().replace(',', '.')), fixed: euroCents(fields.fixed)! / 100 } : null;
    onReview({
      seller,
      patch: { commissionPercent: commission?.percent ?? null, commissionFixed: commission?.fixed ?? null, holdDays },
      title: `Change the terms of ${seller.name}?`,
      text: `Commission: ${commission ? `${commissionText(commission)} per key` : 'the store’s default'}. Money held ${holdDays} day${holdDays === 1 ? '' : 's'} after a sale. The prices buyers pay for its offers follow at once.`,
      done: `${seller.name}: terms saved.`,
    });
  });

  const problemProps = (name: keyof TermsFields) => (errors[name] ? { 'aria-invalid': true, 'aria-describedby': `terms-${name}-error` } : {});
  const problem = (name: keyof TermsFields) =>
    errors[name] && (
      <span id={`terms-${name}-error`} className={styles.problem} role="alert">
        {errors[name].message}
      </span>
    );
  return (
    <Modal title={`Terms of ${seller.name}`} onClose={onClose}>
      <form className={styles.page} onSubmit={review} noValidate>
        <fieldset className={`${styles.field} ${styles.choices}`}>
          <legend>Commission</legend>
          <label className={styles.check}>
            <input type="radio" value="default" {...register('commission')} />
            The store’s default (set on the Catalogue page)
          </label>
          <label className={styles.check}>
            <input type="radio" value="custom" {...register('commission')} />
            Its own
          </label>
        </fieldset>
        {custom && (
          <div className={styles.filters}>
            <div className={styles.field}>
              <label htmlFor="terms-percent">Percent of the net price (0–{COMMISSION_PERCENT_MAX} %)</label>
              <input
                id="terms-percent"
                className={styles.price}
                type="number"
                inputMode="decimal"
                step="0.01"
                {...register('percent', { validate: onlyWhenCustom(commissionPercentProblem) })}
                {...problemProps('percent')}
              />
              {problem('percent')}
            </div>
            <div className={styles.field}>
              <label htmlFor="terms-fixed">Plus per key (€)</label>
              <input
                id="terms-fixed"
                className={styles.price}
                type="number"
                inputMode="decimal"
                step="0.01"
                {...register('fixed', { validate: onlyWhenCustom(commissionFixedProblem) })}
                {...problemProps('fixed')}
              />
              {problem('fixed')}
            </div>
          </div>
        )}
        <div className={styles.field}>
          <label htmlFor="terms-hold-days">Days a sale’s money is held (0–{HOLD_DAYS_MAX})</label>
          <input
            id="terms-hold-days"
            className={styles.price}
            type="number"
            inputMode="numeric"
            step="1"
            {...register('holdDays', { validate: byRule(holdDaysProblem) })}
            {...problemProps('holdDays')}
          />
          {problem('holdDays')}
        </div>
        <div className={buttons.actions}>
          <button type="submit" className={buttons.primary}>
            Review
          </button>
          <button type="button" className={buttons.secondary} onClick={onClose}>
            Cancel
          </button>
        </div>
      </form>
    </Modal>
  );
}
