// A seller's score from outcomes over the last 90 days (issue 24), never from stars: deliveries whose
// keys came on the first try, the p90 time of a provide, claims found valid per 100 keys, and refunds,
// smoothed toward 90 (contract: scoreValue). Read from the read models the orders, offers, claims and
// ledger modules publish (decision 033). Refreshed every minute into the sellers row, where the
// store reads it to break price ties and to take a seller below the owner's floor out of the store.
import { sql } from 'drizzle-orm';
import { HOUSE_SELLER_ID, SCORE_FLOOR_AFTER, SCORE_WINDOW_DAYS, scoreValue, type SellerScore } from '@keystore/contract';
import { inList, queryRows, type Db } from '../../db/client.ts';

interface Figures {
  seller_id: string;
  lines: number;
  keys: number;
  failed: number;
  retried: number;
  p90: number | null;
  claims: number;
  refunds: number;
}

/** The score of some sellers (every seller but the house when `sellerIds` is undefined). */
export async function sellerScores(db: Db, sellerIds?: string[]): Promise<Map<string, SellerScore>> {
  if (sellerIds?.length === 0) return new Map();
  const since = sql.raw(`now() - interval '${SCORE_WINDOW_DAYS} days'`);
  const rows = await queryRows<Figures>(
    db,
    sql`select s.id as seller_id,
          (select count(*)::int from sold_lines l where l.seller_id = s.id and l.delivered_at > ${since}) as lines,
          (select coalesce(sum(l.quantity), 0)::int from sold_lines l where l.seller_id = s.id and l.delivered_at > ${since}) as keys,
          (select count(*)::int from reservation_outcomes r where r.seller_id = s.id and r.state = 'failed' and r.provide_calls > 0 and r.updated_at > ${since}) as failed,
          (select count(*)::int from reservation_outcomes r where r.seller_id = s.id and r.state = 'delivered' and r.provide_calls > 1 and r.updated_at > ${since}) as retried,
          (select percentile_cont(0.9) within group (order by r.provide_seconds)::float8 from reservation_outcomes r
             where r.seller_id = s.id and r.provide_seconds is not null and r.updated_at > ${since}) as p90,
          (select count(*)::int from claim_outcomes c where c.seller_id = s.id and c.state in ('replaced', 'refunded') and c.created_at > ${since}) as claims,
          (select count(*)::int from seller_postings e where e.seller_id = s.id and e.kind in ('refund', 'claim') and e.at > ${since}) as refunds
        from sellers s where s.id <> ${HOUSE_SELLER_ID} ${sellerIds ? sql`and s.id in ${inList(sellerIds)}` : sql``}`,
  );
  return new Map(rows.map((row) => [row.seller_id, scoreOf(row)]));
}

function scoreOf(row: Figures): SellerScore {
  const deliveries = row.lines + row.failed;
  const onFirstTry = deliveries === 0 ? 1 : Math.max(0, row.lines - row.retried) / deliveries;
  const p90ProvideSeconds = Math.round((row.p90 ?? 0) * 10) / 10;
  const claimsPer100 = Math.round(((100 * row.claims) / Math.max(row.keys, 1)) * 10) / 10;
  const figures = { onFirstTry, p90ProvideSeconds, claimsPer100, refunds: row.refunds, deliveries, keys: row.keys };
  return { value: scoreValue(figures), onFirstTry: Math.round(onFirstTry * 1000) / 1000, p90ProvideSeconds, claimsPer100, refunds: row.refunds, deliveries };
}

/**
 * Writes every seller's score into its row, and whether it is below `floor` with enough deliveries to
 * count. Answers the sellers whose standing changed (their offers enter or leave the store).
 */
export async function refreshScores(tx: Db, floor: number): Promise<string[]> {
  const scores = await sellerScores(tx);
  if (scores.size === 0) return [];
  const values = [...scores].map(([id, score]) => ({ id, score: score.value, deliveries: score.deliveries, below: score.deliveries >= SCORE_FLOOR_AFTER && score.value < floor }));
  // The sellers whose standing flipped: `before` reads the rows as they were, in the same statement.
  const flipped = await queryRows<{ id: string }>(
    tx,
    sql`with changed as (
          update sellers s set score = v.score, score_deliveries = v.deliveries, below_floor = v.below
          from jsonb_to_recordset(${JSON.stringify(values)}::jsonb) as v(id text, score int, deliveries int, below boolean)
          where s.id = v.id and (s.score, s.score_deliveries, s.below_floor) is distinct from (v.score, v.deliveries, v.below)
          returning s.id, s.below_floor
        )
        select changed.id from changed join sellers before on before.id = changed.id where before.below_floor is distinct from changed.below_floor`,
  );
  return flipped.map((row) => row.id);
}
