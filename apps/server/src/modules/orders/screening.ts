// What the orders module observes of an order at checkout for the risk desk (issue 29), in one
// statement of the placement's transaction: the buyer's recent and past orders, the account's age and
// sign-ins and security changes (the users, auth and security modules' published views), and whether a line's seller is the buyer or
// signs in from the buyer's address or browser. The risk desk adds what it knows of the identities, and the
// payment what the card tells.
import { sql, type SQL } from 'drizzle-orm';
import { RISK_SIGNAL_LIMITS as limits } from '@keystore/contract';
import { knownAddresses, knownBrowsers, untrustedSignIns } from '../auth/ports.ts';
import { securityChanges } from '../security/ports.ts';
import { sellerFacts } from '../sellers/ports.ts';
import { userFacts } from '../users/ports.ts';
import { orderLines, orders } from './schema.ts';
import type { Buyer } from './store.ts';

/** The states of an order whose money was taken or is held: what counts as bought. */
const BOUGHT = sql.raw(`('Paid', 'In review', 'Refunded')`);

/**
 * The checkout facts of order `orderId` (inserted already, in the caller's transaction) for its buyer:
 * an account, or a guest's e-mail (whose orders are those placed with that e-mail, signed in or not).
 * A query of one row whose `facts` column is the CheckoutFacts as JSON: the risk desk notes them in
 * the statement that asks it (risk.prepare), so checkout costs the purchase one statement.
 */
export function checkoutFacts(orderId: string, buyer: Buyer, address: string, browser: string | undefined, totalCents: number): SQL {
  const mine = buyer.userId !== undefined ? sql`o.user_id = ${buyer.userId}` : sql`o.email = ${buyer.email} and o.user_id is null`;
  return sql`with mine as (select o.id, o.status, o.paid_at from ${orders} o where ${mine})
    select jsonb_build_object(
      'paidOrders24h', (select count(*) from mine where status in ${BOUGHT} and paid_at > now() - interval '24 hours')::int + 1,
      'maxCopiesOfTitle', (select coalesce(max(copies), 0) from (
         select l.game_id, sum(l.quantity) as copies from ${orderLines} l join mine on mine.id = l.order_id
         where mine.id = ${orderId} or (mine.status in ('Paid', 'In review') and mine.paid_at > now() - interval '30 days')
         group by l.game_id) per_title)::int,
      'buyerAgeHours', (select greatest(0, extract(epoch from now() - u.created_at) / 3600) from ${userFacts} u where u.id = ${buyer.userId ?? null})::float8,
      'totalCents', ${totalCents}::int,
      'untrustedSignIn', exists (select 1 from ${untrustedSignIns} s where s.user_id = ${buyer.userId ?? null} and s.at > now() - interval '72 hours')
        or exists (select 1 from ${securityChanges} c where c.user_id = ${buyer.userId ?? null} and c.at > now() - interval '72 hours'),
      'undisputedOldOrders', (select count(*) from mine where status = 'Paid' and paid_at < now() - ${limits.loyalAfterDays}::int * interval '1 day')::int,
      'sellerCashOut', exists (
        select 1 from ${orderLines} l join ${sellerFacts} s on s.id = l.seller_id
        where l.order_id = ${orderId} and s.user_id is not null
          and (s.user_id = ${buyer.userId ?? null}
               or exists (select 1 from ${knownAddresses} a where a.user_id = s.user_id and a.ip = ${address})
               or exists (select 1 from ${knownBrowsers} b where b.user_id = s.user_id and b.browser = ${browser ?? null})))
    ) as facts`;
}
