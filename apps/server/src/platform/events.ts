// The store's in-process event bus (DESIGN §6, decision 022): a module says what happened to an
// order, an account or a game, and whoever cares (notifications, and later alerts and the back
// office) subscribes, so no module imports the one that reacts. Events stay in this process: what
// must reach other instances is written to PostgreSQL by a subscriber (a notification's insert and
// NOTIFY), and what must survive a crash is written in the publisher's transaction.
//
// Two kinds, told apart by type so a publisher cannot mix them up:
// - after the fact (`emit`): the change is committed; subscribers run in the background, a failure
//   is logged, never thrown to the publisher, and `drain` waits for them (tests, shutdown).
// - awaited (`publish`): subscribers are awaited one after another and a failure is thrown to the
//   publisher. Most carry the publisher's transaction: what a subscriber writes commits with the
//   change or rolls back with it (an outbox).
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../db/client.ts';

/** An order as a subscriber sees it; `userId` is null once the account is deleted. */
interface OrderSubject {
  orderId: string;
  userId: string | null;
}

/** A game's sellable stock at some moment. */
export interface GameStock {
  gameId: string;
  stock: number;
  /** The price the game shows now (its best offer's), when the move may have changed it. */
  priceCents?: number | undefined;
}

/** Where a delivered key came from: the house (its supplier or its shelf), a seller's uploaded keys, or a declared seller's webhook. */
export type KeySource = 'house' | 'uploaded' | 'declared';

/** Events told after their change is committed. */
export interface AfterCommitEvents {
  /** An order was placed (its stock reserved), by a customer or a guest. */
  'order-placed': OrderSubject;
  /** The card network reported a dispute of a paid order (issue 29). */
  'order-disputed': OrderSubject;
  'order-paid': OrderSubject & { amountCents: number; currency: string };
  'order-refunded': OrderSubject & { amountCents: number; currency: string };
  /** Closed unpaid by its buyer (the pay page's Cancel) or because its time to pay ran out. */
  'order-cancelled': OrderSubject;
  'order-expired': OrderSubject;
  /** A sync changed a game's price (euro cents, markup included). */
  'price-changed': { gameId: string; from: number; to: number };
  /** A sync changed the supplier's quantity of a game: the sellable stock before and after. */
  'stock-changed': { gameId: string; from: number; to: number };
  /**
   * An order took keys off the shelf or put them back: each game's sellable stock as its transaction
   * left it. Told synchronously, so this instance's lists and game pages show it in the same turn.
   */
  'stock-moved': { games: GameStock[] };
  /** A dispute or a fraud warning proved an order fraudulent (issue 29): its buyer's account is blocked, and its seller account suspended. */
  'fraud-proved': { orderId: string; userId: string | null };
  'account-created': { userId: string };
  'password-changed': { userId: string };
  'new-device-login': { userId: string; ip: string };
  /** Sessions of the user were ended (a logout, a device signed out, a password change): their live streams close, on every instance. */
  'sessions-ended': { userId: string };
}

/** Events the publisher awaits; those with `tx` are told inside the transaction that makes the change. */
export interface AwaitedEvents {
  /** A paid order's keys are stored and it is marked Delivered. */
  /** `gift`: bought for someone else (issue 29), whose recipient the gifts module tells; `sources`: the keys stored by this delivery, by where they came from. */
  'order-delivered': OrderSubject & { tx: Db; keyCount: number; gift: boolean; sources: Record<KeySource, number> };
  /** A payment failed and the order is closed (its stock goes back). */
  'order-declined': OrderSubject & { tx: Db; reason: string | null };
  /** The risk desk held an order for review (issue 29): its payment is authorised, its keys wait for the owner's decision. */
  'order-held': OrderSubject & { tx: Db; amountCents: number; score: number; cancelRecommended: boolean };
  /**
   * Sellers changed in the transaction that changes them: their commission (`repriced`: their offers'
   * buyer prices follow), or their standing (`standing`: a status, or a score crossing the floor, takes
   * their offers in or out of the store). Subscribers add the games they moved.
   */
  'sellers-changed': { tx: Db; sellerIds: string[]; repriced: boolean; standing: boolean; moved: GameStock[] };
  /**
   * An account proved its e-mail (verified it, or signed in with it verified): a guest's orders placed
   * with it join the account before the answer (issue 29). Subscribers log their own failures.
   */
  'email-proved': { userId: string; email: string };
  /** A news item was published (the news module logs a subscriber's failure: the item stays published). */
  'news-published': { id: string; title: string };
}

type Handler<Payload> = (payload: Payload) => void | Promise<void>;

/** A tiny typed emitter: a list of handlers per event name, and the two ways of telling them. */
export class EventBus<After extends object = AfterCommitEvents, Within extends object = AwaitedEvents> {
  private readonly handlers = new Map<PropertyKey, Array<Handler<never>>>();
  private readonly inFlight = new Set<Promise<unknown>>();
  private readonly log: FastifyBaseLogger;

  constructor(log: FastifyBaseLogger) {
    this.log = log;
  }

  /** Subscribes to an event; answers the function that unsubscribes. */
  on<Name extends keyof (After & Within)>(name: Name, handler: Handler<(After & Within)[Name]>): () => void {
    const list = this.handlers.get(name) ?? [];
    list.push(handler as Handler<never>);
    this.handlers.set(name, list);
    return () => {
      const at = list.indexOf(handler as Handler<never>);
      if (at >= 0) list.splice(at, 1);
    };
  }

  /** Tells the subscribers of a committed change without waiting for them; a failure is logged. */
  emit<Name extends keyof After>(name: Name, payload: After[Name]): void {
    for (const handler of this.handlersOf<After[Name]>(name)) {
      // Called at once, so whatever the subscriber starts is under way when the publisher goes on.
      let work: Promise<unknown>;
      try {
        work = Promise.resolve(handler(payload));
      } catch (error) {
        work = Promise.reject(error);
      }
      work = work.catch((error: unknown) => this.log.error({ err: error, event: name }, 'an event subscriber failed'));
      this.inFlight.add(work);
      void work.finally(() => this.inFlight.delete(work));
    }
  }

  /** Tells the subscribers one after another and waits for them; a failure is thrown to the publisher. */
  async publish<Name extends keyof Within>(name: Name, payload: Within[Name]): Promise<void> {
    for (const handler of this.handlersOf<Within[Name]>(name)) await handler(payload);
  }

  /** Waits for the subscribers of emitted events still at work, including events they emit in turn. */
  async drain(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  private handlersOf<Payload>(name: PropertyKey): Array<Handler<Payload>> {
    // A copy: a handler that unsubscribes while the event is told does not skip the next one.
    return [...(this.handlers.get(name) ?? [])] as Array<Handler<Payload>>;
  }
}

/** The app's bus. */
export type StoreEventBus = EventBus<AfterCommitEvents, AwaitedEvents>;
