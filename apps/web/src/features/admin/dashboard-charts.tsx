import { Area, AreaChart, Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { AdminStats } from '@keystore/contract';
import { formatEuro } from '../../lib/money.ts';
import styles from './admin.module.css';

// The dashboard's charts (recharts, in the back office's chunk only). Each chart is one image for a
// screen reader, named by what it shows; its figures are in the cards and the tables beside it.
// Recharts' own keyboard layer is off: a focusable chart inside an image would be read twice.

const AXIS = { stroke: '#a3a3b8', fontSize: 12 };
const TOOLTIP = { contentStyle: { background: '#181824', border: '1px solid #2c2c40', borderRadius: 8 }, labelStyle: { color: '#f2f2f7' } };
/** jsdom and the first paint have no layout: the charts start at this size rather than at zero. */
const START = { width: 600, height: 260 };

export function RevenueChart({ byDay }: { byDay: AdminStats['revenue']['byDay'] }) {
  const total = byDay.reduce((sum, day) => sum + day.amount, 0);
  return (
    <div className={styles.chart} role="img" aria-label={`Revenue per day, ${byDay.length} days, ${formatEuro(total)} in all`}>
      <ResponsiveContainer initialDimension={START}>
        <AreaChart accessibilityLayer={false} data={byDay} margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#2c2c40" vertical={false} />
          <XAxis dataKey="date" tick={AXIS} tickFormatter={(date: string) => date.slice(5)} minTickGap={16} />
          <YAxis tick={AXIS} width={56} tickFormatter={(amount: number) => `€${amount}`} />
          <Tooltip {...TOOLTIP} formatter={(amount) => [formatEuro(Number(amount)), 'Revenue']} />
          <Area type="monotone" dataKey="amount" stroke="#9d86ff" fill="#6246ea" fillOpacity={0.35} strokeWidth={2} />
        </AreaChart>
      </ResponsiveContainer>
    </div>
  );
}

export function OrdersByStatusChart({ ordersByStatus }: { ordersByStatus: AdminStats['ordersByStatus'] }) {
  const data = Object.entries(ordersByStatus).map(([status, count]) => ({ status, count }));
  return (
    <div className={styles.chart} role="img" aria-label={`Orders by status: ${data.map(({ status, count }) => `${status} ${count}`).join(', ')}`}>
      <ResponsiveContainer initialDimension={START}>
        {/* Bars along, so that every status's name fits beside its bar. */}
        <BarChart accessibilityLayer={false} data={data} layout="vertical" margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#2c2c40" horizontal={false} />
          <XAxis type="number" tick={AXIS} allowDecimals={false} />
          <YAxis type="category" dataKey="status" tick={AXIS} width={124} interval={0} />
          <Tooltip {...TOOLTIP} cursor={{ fill: '#222233' }} />
          <Bar dataKey="count" name="Orders" fill="#6246ea" radius={[0, 4, 4, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}

export function TopGamesChart({ topGames }: { topGames: AdminStats['topGames'] }) {
  return (
    <div className={styles.chart} role="img" aria-label="Top games by units sold (listed in the table below)">
      <ResponsiveContainer initialDimension={START}>
        <BarChart accessibilityLayer={false} data={topGames} layout="vertical" margin={{ top: 8, right: 8, bottom: 0, left: 0 }}>
          <CartesianGrid stroke="#2c2c40" horizontal={false} />
          <XAxis type="number" tick={AXIS} allowDecimals={false} />
          <YAxis type="category" dataKey="title" tick={AXIS} width={150} interval={0} />
          <Tooltip {...TOOLTIP} cursor={{ fill: '#222233' }} />
          <Bar dataKey="units" name="Units" fill="#9d86ff" radius={[0, 4, 4, 0]} />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
