// The wishlist's tables (issue 31): a customer's wished games with their alert settings, the accounts
// that turned alert mails off, and how far the alerts have followed the catalogue's price points.
import { and, asc, count, eq, sql } from 'drizzle-orm';
import { queryRows, type Db } from '../../db/client.ts';
import { alertMailOptOuts, wishlistAlertProgress, wishlistItems } from './schema.ts';

export type WishlistRow = typeof wishlistItems.$inferSelect;

export interface AlertSettings {
  priceDrop?: boolean | undefined;
  targetPriceCents?: number | null | undefined;
  backInStock?: boolean | undefined;
}

/** A customer's wished games, oldest first. */
export function itemsOf(db: Db, userId: string): Promise<WishlistRow[]> {
  return db.select().from(wishlistItems).where(eq(wishlistItems.userId, userId)).orderBy(asc(wishlistItems.addedAt), asc(wishlistItems.gameId));
}

/** Changes the alert settings of a wished game; answers whether it was on the list. */
export async function updateItem(db: Db, userId: string, gameId: string, settings: AlertSettings): Promise<boolean> {
  const set = defined(settings);
  if (Object.keys(set).length === 0) {
    const [row] = await db.select({ gameId: wishlistItems.gameId }).from(wishlistItems).where(and(eq(wishlistItems.userId, userId), eq(wishlistItems.gameId, gameId)));
    return row !== undefined;
  }
  const updated = await db
    .update(wishlistItems)
    .set(set)
    .where(and(eq(wishlistItems.userId, userId), eq(wishlistItems.gameId, gameId)))
    .returning({ gameId: wishlistItems.gameId });
  return updated.length > 0;
}

/**
 * Adds a game while the list holds fewer than `max` (in one statement, so the count and the insert
 * see the same list); answers 'added', 'kept' (already there, a race won by another request) or 'full'.
 */
export async function addItem(
  db: Db,
  item: { userId: string; gameId: string; priceAtAddCents: number; addedAt?: Date | undefined } & AlertSettings,
  max: number,
): Promise<'added' | 'kept' | 'full'> {
  const added = await queryRows<{ gameId: string }>(
    db,
    sql`insert into wishlist_items (user_id, game_id, added_at, price_at_add_cents, price_drop, target_price_cents, back_in_stock)
        select ${item.userId}, ${item.gameId}, ${(item.addedAt ?? new Date()).toISOString()}::timestamptz, ${item.priceAtAddCents},
               ${item.priceDrop ?? true}, ${item.targetPriceCents ?? null}::int, ${item.backInStock ?? true}
        where (select count(*) from wishlist_items where user_id = ${item.userId}) < ${max}
        on conflict (user_id, game_id) do nothing
        returning game_id as "gameId"`,
  );
  if (added.length > 0) return 'added';
  const [held] = await db.select({ n: count() }).from(wishlistItems).where(and(eq(wishlistItems.userId, item.userId), eq(wishlistItems.gameId, item.gameId)));
  return (held?.n ?? 0) > 0 ? 'kept' : 'full';
}

export async function removeItem(db: Db, userId: string, gameId: string): Promise<void> {
  await db.delete(wishlistItems).where(and(eq(wishlistItems.userId, userId), eq(wishlistItems.gameId, gameId)));
}

export async function alertMailsOn(db: Db, userId: string): Promise<boolean> {
  const [row] = await db.select({ userId: alertMailOptOuts.userId }).from(alertMailOptOuts).where(eq(alertMailOptOuts.userId, userId));
  return row === undefined;
}

export async function setAlertMails(db: Db, userId: string, on: boolean): Promise<void> {
  if (on) await db.delete(alertMailOptOuts).where(eq(alertMailOptOuts.userId, userId));
  else await db.insert(alertMailOptOuts).values({ userId }).onConflictDoNothing();
}

/**
 * The transactions whose price points have not been weighed yet: those that had ended by now (`to`,
 * this statement's snapshot) but not when the last run took its own (`from`). Snapshots rather than a
 * watermark, so a long transaction (of this database or another on the server) delays none of the
 * points committed around it: each point is weighed by the first run that sees its transaction ended.
 * The migration makes the row; should it be gone, following starts now.
 */
export async function pendingRange(db: Db): Promise<{ from: string; to: string }> {
  const [row] = await queryRows<{ from: string; to: string }>(
    db,
    sql`with now as (select pg_current_snapshot() as snapshot),
             first as (insert into wishlist_alert_progress (id, through) select 1, snapshot from now on conflict (id) do nothing returning through)
        select coalesce((select through from first), (select through from wishlist_alert_progress where id = 1))::text as "from", (select snapshot from now)::text as "to"`,
  );
  return row!;
}

export async function markWeighed(db: Db, through: string): Promise<void> {
  await db.update(wishlistAlertProgress).set({ through, ranAt: new Date() }).where(eq(wishlistAlertProgress.id, 1));
}

/** What the points of a range say of one wished-for game: its price and stock now, and when it came back in stock. */
export interface GameMove {
  gameId: string;
  priceCents: number;
  inStock: boolean;
  /** The last point in stock right after one out of stock, within the range; null for none. */
  restockedAt: Date | null;
}

/**
 * The wished-for games the price points of a range's transactions moved, read once per run: each
 * game's last point in the range is its price and stock now. The bounds on `written_by` let the
 * index find the range; the snapshots say which of its transactions belong to it.
 */
export async function movesInRange(db: Db, range: { from: string; to: string }): Promise<GameMove[]> {
  const from = sql`${range.from}::pg_snapshot`;
  const to = sql`${range.to}::pg_snapshot`;
  const inRange = sql`p.written_by >= pg_snapshot_xmin(${from}) and p.written_by < pg_snapshot_xmax(${to})
    and not pg_visible_in_snapshot(p.written_by, ${from}) and pg_visible_in_snapshot(p.written_by, ${to})`;
  const rows = await queryRows<{ gameId: string; priceCents: number; inStock: boolean; restockedAt: string | Date | null }>(
    db,
    sql`with moved as (
          select distinct on (p.game_id) p.game_id, p.price_cents, p.in_stock
          from price_moves p
          where ${inRange} and exists (select 1 from wishlist_items w where w.game_id = p.game_id)
          order by p.game_id, p.id desc
        )
        select m.game_id as "gameId", m.price_cents as "priceCents", m.in_stock as "inStock",
               (select max(p.at) from price_moves p
                where p.game_id = m.game_id and ${inRange} and p.in_stock
                  and not coalesce((select q.in_stock from price_moves q where q.game_id = p.game_id and q.id < p.id order by q.id desc limit 1), true)) as "restockedAt"
        from moved m`,
  );
  return rows.map((row) => ({ ...row, restockedAt: row.restockedAt === null ? null : new Date(row.restockedAt) }));
}

/** An alert the batch claimed: the wished item, who gets it and what it says. */
export interface ClaimedAlert {
  userId: string;
  gameId: string;
  kind: 'price-drop' | 'back-in-stock';
  priceCents: number;
  priceAtAddCents: number;
  email: string;
  username: string;
  title: string;
  mailOff: boolean;
}

/**
 * Claims up to `limit` alerts that `moves` call for, marking each item alerted in the same statement
 * (so a claimed alert is never claimed again, on any instance): a price drop needs the game in stock,
 * its price at or under the item's threshold and lower than the last alert's; back in stock needs the
 * game back after it was wished for. At most one alert per item in `cooldownDays`, and none to an
 * unverified or blocked account or for a hidden game.
 */
export function claimAlerts(db: Db, moves: readonly GameMove[], options: { dropPercent: number; cooldownDays: number; limit: number }): Promise<ClaimedAlert[]> {
  const ids = sql`array[${sql.join(moves.map((move) => sql`${move.gameId}`), sql`, `)}]::text[]`;
  const prices = sql`array[${sql.join(moves.map((move) => sql`${move.priceCents}`), sql`, `)}]::int[]`;
  const stocked = sql`array[${sql.join(moves.map((move) => sql`${move.inStock}`), sql`, `)}]::boolean[]`;
  const restocked = sql`array[${sql.join(moves.map((move) => sql`${move.restockedAt?.toISOString() ?? null}`), sql`, `)}]::timestamptz[]`;
  return queryRows<ClaimedAlert>(
    db,
    sql`with moved as (
          select * from unnest(${ids}, ${prices}, ${stocked}, ${restocked}) as m(game_id, price_cents, in_stock, restocked_at)
        ),
        due as (
          select w.user_id, w.game_id, m.price_cents, w.price_at_add_cents, u.email, u.username, g.title,
                 exists (select 1 from alert_mail_opt_outs o where o.user_id = w.user_id) as mail_off,
                 case
                   when w.price_drop
                        and (case when w.target_price_cents is not null then m.price_cents <= w.target_price_cents
                                  else m.price_cents * 100 <= w.price_at_add_cents * (100 - ${options.dropPercent}) end)
                        and (w.last_alert_price_cents is null or m.price_cents < w.last_alert_price_cents) then 'price-drop'
                   when w.back_in_stock and m.restocked_at > w.added_at then 'back-in-stock'
                 end as kind
          from moved m
          join wishlist_items w on w.game_id = m.game_id
          join user_facts u on u.id = w.user_id and u.email_verified_at is not null and u.blocked_at is null
          join game_facts g on g.id = m.game_id and not g.hidden
          where m.in_stock and (w.last_alert_at is null or w.last_alert_at < now() - make_interval(days => ${options.cooldownDays}))
        ),
        claimed as (
          select * from due where kind is not null order by game_id, user_id limit ${options.limit}
        )
        update wishlist_items w set last_alert_at = now(), last_alert_price_cents = c.price_cents
        from claimed c
        where w.user_id = c.user_id and w.game_id = c.game_id
        returning w.user_id as "userId", w.game_id as "gameId", c.kind, c.price_cents as "priceCents", c.price_at_add_cents as "priceAtAddCents",
                  c.email, c.username, c.title, c.mail_off as "mailOff"`,
  );
}

/** The settings given, without those left out (undefined), as columns. */
function defined(settings: AlertSettings): Partial<Pick<WishlistRow, 'priceDrop' | 'targetPriceCents' | 'backInStock'>> {
  return {
    ...(settings.priceDrop === undefined ? {} : { priceDrop: settings.priceDrop }),
    ...(settings.targetPriceCents === undefined ? {} : { targetPriceCents: settings.targetPriceCents }),
    ...(settings.backInStock === undefined ? {} : { backInStock: settings.backInStock }),
  };
}
