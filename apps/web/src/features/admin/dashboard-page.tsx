import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ADMIN_STATS_DEFAULT_DAYS } from '@keystore/contract/admin-rules';
import { formatEuro } from '../../lib/money.ts';
import { AdminPage, dayBefore } from './admin-ui.tsx';
import { statsQuery } from './api.ts';
import { OrdersByStatusChart, RevenueChart, TopGamesChart } from './dashboard-charts.tsx';
import dataTable from '../../ui/data-table.module.css';
import styles from './admin.module.css';

const PERIODS = [7, 30, 90] as const;

/** Sales at a glance (issue 15): today's figures, and a period's revenue, orders and top games. */
export function AdminDashboardPage() {
  const [days, setDays] = useState<number>(ADMIN_STATS_DEFAULT_DAYS);
  const stats = useQuery(statsQuery(dayBefore(days - 1), dayBefore(0)));
  const period = (
    <div className={styles.field}>
      <label htmlFor="admin-period">Period</label>
      <select id="admin-period" value={days} onChange={(event) => setDays(Number(event.target.value))}>
        {PERIODS.map((count) => (
          <option key={count} value={count}>
            Last {count} days
          </option>
        ))}
      </select>
    </div>
  );
  const data = stats.data;
  return (
    <AdminPage title="Dashboard" query={stats} actions={period}>
      {data && (
        <>
          <dl className={styles.cards}>
            <Card label="Today’s revenue" value={formatEuro(data.today)} />
            <Card label="Undelivered orders" value={String(data.undelivered)} />
            <Card label="Open support messages" value={String(data.openSupport)} />
            <Card label="Commission earned" value={formatEuro(data.marketplace.commissionEarned)} />
            <Card label="Owed to sellers" value={formatEuro(data.marketplace.owedToSellers)} />
            <Card label={`Revenue, last ${days} days`} value={formatEuro(data.revenue.total)} />
            <Card label="New customers" value={`${data.customers.new} of ${data.customers.total}`} />
            <Card label="Refunds" value={`${data.refunds.count} · ${formatEuro(data.refunds.amount)}`} />
          </dl>
          <section className={styles.panel} aria-labelledby="revenue-title">
            <h2 id="revenue-title" className={styles.subtitle}>
              Revenue per day
            </h2>
            <RevenueChart byDay={data.revenue.byDay} />
          </section>
          <div className={styles.grid}>
            <section className={styles.panel} aria-labelledby="statuses-title">
              <h2 id="statuses-title" className={styles.subtitle}>
                Orders by status
              </h2>
              <OrdersByStatusChart ordersByStatus={data.ordersByStatus} />
            </section>
            <section className={styles.panel} aria-labelledby="top-title">
              <h2 id="top-title" className={styles.subtitle}>
                Top games
              </h2>
              <TopGamesChart topGames={data.topGames} />
              {/* Not an AdminTable: under its chart it needs no scrolling box or caption, only the tables' look. */}
              <table className={`${dataTable.table} ${styles.tables}`}>
                <thead>
                  <tr>
                    <th scope="col">Game</th>
                    <th scope="col" className={dataTable.number}>
                      Units
                    </th>
                    <th scope="col" className={dataTable.number}>
                      Revenue
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {data.topGames.map((game) => (
                    <tr key={game.gameId}>
                      <th scope="row">{game.title}</th>
                      <td className={dataTable.number}>{game.units}</td>
                      <td className={dataTable.number}>{formatEuro(game.revenue)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          </div>
        </>
      )}
    </AdminPage>
  );
}

function Card({ label, value }: { label: string; value: string }) {
  return (
    <div className={styles.card}>
      <dt>{label}</dt>
      <dd>{value}</dd>
    </div>
  );
}
