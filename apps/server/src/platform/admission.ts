// Load shedding on the purchase path (decision 013). Above what the store sustains, letting every
// buyer in makes every buyer wait seconds; bounding the purchases under way and answering the rest
// a fast 503 with Retry-After keeps those who get in fast. Payments of orders already placed are
// never shed and go ahead of new orders: an order let in is an order that can be paid.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { loadMessages } from '@keystore/contract';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Gate the route behind the admission limit: 'order' may be shed, 'payment' waits its turn first. */
    admission?: 'order' | 'payment';
  }
}

export interface AdmissionLimits {
  /** Purchase requests (orders and payments) one instance works on at once. */
  concurrent: number;
  /** New orders that may wait for a turn; beyond it they are shed at once. */
  queued: number;
  /** How long a new order may wait for a turn before it is shed. */
  maxWaitMs: number;
}

interface Waiter {
  priority: boolean;
  admit: (admitted: boolean) => void;
  timer?: NodeJS.Timeout;
}

/** A turn taken at the gate: `leave` gives it back (once, however often it is called). */
export interface Turn {
  leave(): void;
}

/** A counting gate with a bounded, time-limited queue, priority entries first. */
export class AdmissionGate {
  private active = 0;
  private readonly waiting: Waiter[] = [];
  private readonly limits: AdmissionLimits;
  /** Requests shed since start (for logs and the benchmark). */
  shed = 0;

  constructor(limits: AdmissionLimits) {
    this.limits = limits;
  }

  /** Purchase requests being worked on now. */
  get busy(): number {
    return this.active;
  }

  /**
   * Answers a turn once admitted, or undefined when shed. A priority entry is never shed. `signal`
   * withdraws a waiting entry (its client went away): it is then neither admitted nor counted.
   */
  enter(priority: boolean, signal?: AbortSignal): Promise<Turn | undefined> {
    if (signal?.aborted) return Promise.resolve(undefined);
    if (this.active < this.limits.concurrent) {
      this.active += 1;
      return Promise.resolve(this.turn());
    }
    const queuedOrders = this.waiting.filter((waiter) => !waiter.priority).length;
    if (!priority && queuedOrders >= this.limits.queued) return Promise.resolve(this.refuse());
    return new Promise((resolve) => {
      const withdraw = (): void => {
        const at = this.waiting.indexOf(waiter);
        if (at !== -1) this.waiting.splice(at, 1);
        clearTimeout(waiter.timer);
      };
      const waiter: Waiter = {
        priority,
        admit: (admitted) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(admitted ? this.turn() : undefined);
        },
      };
      const onAbort = (): void => {
        withdraw();
        resolve(undefined);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      if (priority) {
        // Behind the other payments, ahead of every order.
        const firstOrder = this.waiting.findIndex((other) => !other.priority);
        this.waiting.splice(firstOrder === -1 ? this.waiting.length : firstOrder, 0, waiter);
      } else {
        waiter.timer = setTimeout(() => {
          withdraw();
          signal?.removeEventListener('abort', onAbort);
          resolve(this.refuse());
        }, this.limits.maxWaitMs);
        this.waiting.push(waiter);
      }
    });
  }

  /** A turn whose leave hands it to the next in line, once. */
  private turn(): Turn {
    let left = false;
    return {
      leave: () => {
        if (left) return;
        left = true;
        const next = this.waiting.shift();
        if (!next) {
          this.active -= 1;
          return;
        }
        clearTimeout(next.timer);
        next.admit(true);
      },
    };
  }

  private refuse(): undefined {
    this.shed += 1;
    return undefined;
  }
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The purchase turn this request holds, if its route is gated; leave it early once the costly part is done. */
    admission?: Turn;
  }
}

/** Why a waiting entry is withdrawn: its answer was sent, or its client went away. */
const CLIENT_GONE = new Error('the answer is done or its client went away');

/**
 * Gates every route whose config names an `admission` kind. The turn is taken after the route's own
 * checks (the session, the body), so a slow or anonymous client cannot hold one, and is given back
 * when the answer is sent, when the client goes away (even while waiting), or earlier by the route.
 */
export function registerAdmission(app: FastifyInstance, limits: AdmissionLimits): AdmissionGate {
  const gate = new AdmissionGate(limits);
  const admit = async (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const gone = new AbortController();
    reply.raw.once('close', () => {
      // With a reason of our own: abort() without one makes a DOMException, stack and all, for every answer.
      gone.abort(CLIENT_GONE);
      request.admission?.leave();
    });
    const turn = await gate.enter(request.routeOptions.config.admission === 'payment', gone.signal);
    if (!turn) {
      if (gone.signal.aborted) return;
      return reply.code(503).header('Retry-After', '1').send({ error: loadMessages.storeBusy });
    }
    request.admission = turn;
    // The client left while the turn was on its way: hand it on at once.
    if (gone.signal.aborted) turn.leave();
  };
  app.addHook('onRoute', (route) => {
    if (!route.config?.admission) return;
    const own = route.preHandler ? (Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler]) : [];
    route.preHandler = [...own, admit];
  });
  return gate;
}
