import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import type { Db } from '../db/client.ts';
import { EventBus } from './events.ts';

/** A logger that keeps what was logged as an error. */
function errorLog(): { log: FastifyBaseLogger; errors: string[] } {
  const errors: string[] = [];
  const log = { error: (_details: unknown, message: string) => void errors.push(message) } as unknown as FastifyBaseLogger;
  return { log, errors };
}

const tx = {} as Db;

describe('EventBus', () => {
  it('calls each subscriber of an emitted event at once, logs a failure instead of throwing, and drains', async () => {
    const { log, errors } = errorLog();
    const bus = new EventBus(log);
    const told: string[] = [];
    let finished = false;
    bus.on('order-paid', ({ orderId }) => void told.push(`first ${orderId}`));
    bus.on('order-paid', () => {
      throw new Error('a broken subscriber');
    });
    bus.on('order-paid', async ({ orderId }) => {
      told.push(`third ${orderId}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
      finished = true;
    });
    bus.emit('order-paid', { orderId: 'o1', userId: 'u1', amountCents: 1000, currency: 'EUR' });
    expect(told).toEqual(['first o1', 'third o1']);
    await bus.drain();
    expect(finished).toBe(true);
    expect(errors).toEqual(['an event subscriber failed']);
  });

  it('awaits the subscribers of a published event one after another and throws their failure to the publisher', async () => {
    const bus = new EventBus(errorLog().log);
    const told: string[] = [];
    bus.on('order-delivered', async ({ keyCount }) => {
      await new Promise((resolve) => setTimeout(resolve, 10));
      told.push(`notified ${keyCount}`);
    });
    const unsubscribe = bus.on('order-delivered', () => {
      throw new Error('rolls the delivery back');
    });
    await expect(bus.publish('order-delivered', { tx, orderId: 'o1', userId: null, keyCount: 2, gift: false, sources: { house: 2, uploaded: 0, declared: 0 } })).rejects.toThrow('rolls the delivery back');
    expect(told).toEqual(['notified 2']);
    unsubscribe();
    await bus.publish('order-delivered', { tx, orderId: 'o2', userId: null, keyCount: 3, gift: false, sources: { house: 3, uploaded: 0, declared: 0 } });
    expect(told).toEqual(['notified 2', 'notified 3']);
  });
});
