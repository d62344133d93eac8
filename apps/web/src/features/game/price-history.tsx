import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Game, PriceSeries } from '@keystore/contract';
import { lowestPriceBefore, PRICE_HISTORY_DAYS } from '@keystore/contract/wishlist-rules';
import { apiGet } from '../../lib/api.ts';
import { formatEuro } from '../../lib/money.ts';
import layout from './game-layout.module.css';
import styles from './price-history.module.css';

const CHART_HEIGHT = 180;

/**
 * The game's price over the last 90 days (issue 31), drawn as steps with uPlot in a box of fixed size,
 * and, when the game is shown as discounted, the lowest price of the 30 days before the reduction (the
 * EU's rule for announced reductions).
 */
export default function PriceHistory({ game }: { game: Pick<Game, '_id' | 'price' | 'originalPrice' | 'title'> }) {
  const series = useQuery({
    queryKey: ['game', game._id, 'prices'],
    queryFn: ({ signal }) => apiGet<PriceSeries>(`/api/games/${encodeURIComponent(game._id)}/prices`, { signal }),
  });
  const discounted = game.originalPrice !== null && game.originalPrice > game.price;
  const lowest = series.data ? lowestPriceBefore(series.data) : undefined;
  return (
    <section className={layout.history} aria-labelledby="price-history-title">
      <h2 id="price-history-title" className={styles.heading}>
        Price history
      </h2>
      <p className={styles.lowest}>{discounted && lowest !== undefined ? `Lowest price in the last 30 days: ${formatEuro(lowest)}` : ' '}</p>
      {series.data && <Chart series={series.data} title={game.title} />}
    </section>
  );
}

function Chart({ series, title }: { series: PriceSeries; title: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const xs = series.map((point) => Date.parse(point.date) / 1000);
    const ys = series.map((point) => point.price);
    const chart = new uPlot(
      {
        width: element.clientWidth,
        height: CHART_HEIGHT,
        legend: { show: false },
        cursor: { drag: { x: false, y: false } },
        scales: { x: { time: true }, y: { range: (_u, min, max) => [Math.max(0, Math.floor(min * 0.9)), Math.ceil(max * 1.1)] } },
        axes: [
          { stroke: '#9a9ab0', grid: { stroke: '#2a2a3a' } },
          { stroke: '#9a9ab0', grid: { stroke: '#2a2a3a' }, values: (_u, ticks) => ticks.map((tick) => `€${tick}`) },
        ],
        series: [{}, { stroke: '#8e7dff', width: 2, fill: 'rgba(142,125,255,0.12)', paths: uPlot.paths.stepped!({ align: 1 }) }],
      },
      [xs, ys],
      element,
    );
    const resize = new ResizeObserver(() => chart.setSize({ width: element.clientWidth, height: CHART_HEIGHT }));
    resize.observe(element);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [series]);
  const first = series[0]!;
  const prices = series.map((point) => point.price);
  return (
    <div
      ref={box}
      className={styles.chart}
      role="img"
      aria-label={`${title}: price over the last ${PRICE_HISTORY_DAYS} days, from ${formatEuro(first.price)} to ${formatEuro(series.at(-1)!.price)}, between ${formatEuro(Math.min(...prices))} and ${formatEuro(Math.max(...prices))}`}
    />
  );
}
