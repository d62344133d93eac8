// Load shedding on the purchase path (decision 013). Above what the store sustains, letting every
// buyer in makes every buyer wait seconds; bounding the purchases under way and answering the rest
// a fast 503 with Retry-After keeps those who get in fast. Payments of orders already placed are
// never shed and go ahead of new orders: an order let in is an order that can be paid.
import type { FastifyInstance } from 'fastify';
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

  /** Answers true once admitted (call `leave` when done), false when shed. A priority entry is never shed. */
  enter(priority: boolean): Promise<boolean> {
    if (this.active < this.limits.concurrent) {
      this.active += 1;
      return Promise.resolve(true);
    }
    const queuedOrders = this.waiting.filter((waiter) => !waiter.priority).length;
    if (!priority && queuedOrders >= this.limits.queued) return Promise.resolve(this.refuse());
    return new Promise((admit) => {
      const waiter: Waiter = { priority, admit };
      if (priority) {
        // Behind the other payments, ahead of every order.
        const firstOrder = this.waiting.findIndex((other) => !other.priority);
        this.waiting.splice(firstOrder === -1 ? this.waiting.length : firstOrder, 0, waiter);
      } else {
        waiter.timer = setTimeout(() => {
          this.waiting.splice(this.waiting.indexOf(waiter), 1);
          admit(this.refuse());
        }, this.limits.maxWaitMs);
        this.waiting.push(waiter);
      }
    });
  }

  /** Ends an admitted request: its turn goes to the next in line. */
  leave(): void {
    const next = this.waiting.shift();
    if (!next) {
      this.active -= 1;
      return;
    }
    clearTimeout(next.timer);
    next.admit(true);
  }

  private refuse(): false {
    this.shed += 1;
    return false;
  }
}

/** Registers the gate for every route whose config names an `admission` kind. */
export function registerAdmission(app: FastifyInstance, limits: AdmissionLimits): AdmissionGate {
  const gate = new AdmissionGate(limits);
  app.addHook('onRequest', async (request, reply) => {
    const kind = request.routeOptions.config.admission;
    if (!kind) return;
    if (!(await gate.enter(kind === 'payment'))) {
      return reply.code(503).header('Retry-After', '1').send({ error: loadMessages.storeBusy });
    }
    // 'close' comes once the answer is sent or the client went away: either way the turn is over.
    reply.raw.once('close', () => gate.leave());
  });
  return gate;
}
