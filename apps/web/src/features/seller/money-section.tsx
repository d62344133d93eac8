import { useQuery } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import type { LedgerKind } from '@keystore/contract/seller-rules';
import { messageOf } from '../../lib/api.ts';
import { formatEuro } from '../../lib/money.ts';
import { DataTable, type Column } from '../../ui/data-table.tsx';
import { ledgerQuery, payoutsQuery, salesQuery } from './api.ts';
import { Pager } from './pager.tsx';
import dataTable from '../../ui/data-table.module.css';
import styles from './seller.module.css';

const KIND_LABELS: Record<LedgerKind, string> = {
  sale: 'Sale',
  commission: 'Commission',
  release: 'Hold released',
  refund: 'Refund',
  payout: 'Payout',
  fee: 'Failure fee',
  claim: 'Key refunded after a claim',
  chargeback: 'Key returned after a dispute',
};

/** "2026-11-20" of an ISO time. */
const day = (iso: string) => <time dateTime={iso}>{iso.slice(0, 10)}</time>;

/** The seller's sales, ledger entries and payouts. */
export function MoneySection() {
  const [salesPage, setSalesPage] = useState(1);
  const [ledgerPage, setLedgerPage] = useState(1);
  const sales = useQuery(salesQuery(salesPage));
  const ledger = useQuery(ledgerQuery(ledgerPage));
  const payouts = useQuery(payoutsQuery());
  return (
    <>
      <Table title="Sales" query={sales} empty="No sales yet." columns={['Date', 'Game', { label: 'Keys', numeric: true }, { label: 'Price', numeric: true }, { label: 'Your part', numeric: true }, 'State']}>
        {sales.data?.items.map((sale, index) => (
          <tr key={`${sale.orderId}-${sale.gameId}-${index}`}>
            <td>{day(sale.date)}</td>
            <th scope="row">{sale.title}</th>
            <td className={dataTable.number}>{sale.quantity}</td>
            <td className={dataTable.number}>{formatEuro(sale.price)}</td>
            <td className={dataTable.number}>{formatEuro(sale.net)}</td>
            <td>{sale.state}</td>
          </tr>
        ))}
      </Table>
      {sales.data && <Pager {...sales.data} onPage={setSalesPage} />}
      <Table title="Ledger" query={ledger} empty="No entries yet." columns={['Date', 'Entry', { label: 'Amount', numeric: true }, 'Order']}>
        {ledger.data?.items.map((entry) => (
          <tr key={entry._id}>
            <td>{day(entry.date)}</td>
            <th scope="row">{KIND_LABELS[entry.kind]}</th>
            <td className={dataTable.number}>{formatEuro(entry.amount)}</td>
            <td className={styles.mono}>{entry.orderId ?? '—'}</td>
          </tr>
        ))}
      </Table>
      {ledger.data && <Pager {...ledger.data} onPage={setLedgerPage} />}
      <Table title="Payouts" query={payouts} empty="No payouts yet." columns={['Date', { label: 'Amount', numeric: true }, 'Status', 'Reference']}>
        {payouts.data?.map((payout) => (
          <tr key={payout._id}>
            <th scope="row">{day(payout.createdAt)}</th>
            <td className={dataTable.number}>{formatEuro(payout.amount)}</td>
            <td>{payout.status === 'paid' ? `Paid ${payout.paidAt?.slice(0, 10) ?? ''}` : 'Pending'}</td>
            <td className={styles.mono}>{payout.reference ?? '—'}</td>
          </tr>
        ))}
      </Table>
    </>
  );
}

interface TableProps {
  title: string;
  query: { isPending: boolean; isError: boolean; error: unknown; data?: { items: unknown[] } | unknown[] };
  empty: string;
  columns: readonly Column[];
  children: ReactNode;
}

/** A titled table with its loading, failed and empty states. */
function Table({ title, query, empty, columns, children }: TableProps) {
  const rows = Array.isArray(query.data) ? query.data : query.data?.items;
  let body: ReactNode;
  if (query.isPending) body = <p className={styles.muted}>Loading…</p>;
  else if (query.isError) body = <p className={styles.problem} role="alert">{messageOf(query.error, `Could not load ${title.toLowerCase()}. Please try again.`)}</p>;
  else if (!rows || rows.length === 0) body = <p className={styles.muted}>{empty}</p>;
  else {
    body = (
      <DataTable caption={title} captionHidden columns={columns} className={styles.tableWrap}>
        {children}
      </DataTable>
    );
  }
  return (
    <>
      <h2 className={styles.subtitle}>{title}</h2>
      {body}
    </>
  );
}
