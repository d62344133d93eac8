import { describe, expect, it } from 'vitest';
import { DELIVERY_STATUSES, ORDER_STATUSES } from '@keystore/contract';
import { assertAllowed, canDeliver, canMove, DELIVERY_TRANSITIONS, IllegalTransition, ORDER_TRANSITIONS } from './transitions.ts';

describe('the order state machine', () => {
  it('names every status of the contract, and only those', () => {
    expect(Object.keys(ORDER_TRANSITIONS).sort()).toEqual([...ORDER_STATUSES].sort());
    expect(Object.keys(DELIVERY_TRANSITIONS).sort()).toEqual([...DELIVERY_STATUSES].sort());
  });

  it('allows exactly these order moves', () => {
    const allowed = ORDER_STATUSES.flatMap((from) => ORDER_STATUSES.filter((to) => canMove(from, to)).map((to) => `${from} → ${to}`));
    expect(allowed).toEqual([
      'Awaiting payment → In review',
      'Awaiting payment → Paid',
      'Awaiting payment → Declined',
      'Awaiting payment → Expired',
      'Awaiting payment → Cancelled',
      'In review → Paid',
      'In review → Cancelled',
      'Paid → Refunded',
      'Paid → Disputed',
      'Declined → Paid',
      'Declined → Refunded',
      'Expired → In review',
      'Expired → Paid',
      'Expired → Refunded',
      'Cancelled → In review',
      'Cancelled → Paid',
      'Cancelled → Refunded',
    ]);
  });

  it('allows exactly these delivery moves', () => {
    const allowed = DELIVERY_STATUSES.flatMap((from) => DELIVERY_STATUSES.filter((to) => canDeliver(from, to)).map((to) => `${from} → ${to}`));
    expect(allowed).toEqual(['Pending → Delivered', 'Pending → Not delivered', 'Not delivered → Pending']);
  });

  it('refuses a move back, out of Refunded, or to the same state, with a typed error', () => {
    expect(() => assertAllowed({ status: { from: ['Paid'], to: 'Awaiting payment' } })).toThrow(IllegalTransition);
    expect(() => assertAllowed({ status: { from: ['Refunded'], to: 'Paid' } })).toThrow("order status cannot move from 'Refunded' to 'Paid'");
    expect(() => assertAllowed({ status: { from: ['Paid'], to: 'Paid' } })).toThrow(IllegalTransition);
    expect(() => assertAllowed({ delivery: { from: ['Delivered'], to: 'Pending' } })).toThrow(IllegalTransition);
    // One wrong state among several is enough to refuse the move.
    expect(() => assertAllowed({ status: { from: ['Expired', 'Paid'], to: 'Refunded' } })).not.toThrow();
    expect(() => assertAllowed({ status: { from: ['Expired', 'Refunded'], to: 'Paid' } })).toThrow(IllegalTransition);
  });
});
