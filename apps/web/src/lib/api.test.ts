import { act, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CreateOrderRequest, LoginRequest, TestPaymentRequest } from '@keystore/contract';
import { TEST_CARDS } from '@keystore/contract/constants';
import { testCreatedOrder, testGame, testPaymentVerdict, testUser } from '../test/contract-fixtures.ts';
import { json, resetTestState, stubApi } from '../test/fixtures.tsx';
import { Toasts } from '../ui/toasts.tsx';
import { apiGet, apiSend, ApiError } from './api.ts';
import { currentSession } from './session.ts';
import { STORAGE_KEYS } from './storage-keys.ts';

const TEST_CARD: TestPaymentRequest = { cardNumber: TEST_CARDS.pays, expiry: '12/40', cvc: '123', name: 'Ada Lovelace' };
const BUSY = 'The store is busy, try again in a moment';
const busy = (retryAfter: string) => json(503, { error: BUSY }, { 'Retry-After': retryAfter });

/** A route answering `answers` in turn, the last one for every call after. */
function inTurn(...answers: Array<() => Response>) {
  let calls = 0;
  return () => answers[Math.min(calls++, answers.length - 1)]!();
}

/** How a call ended, once it has: its value, or its error. */
function settle<T>(call: Promise<T>) {
  const outcome: { value?: T; error?: unknown; done: boolean } = { done: false };
  call.then(
    (value) => Object.assign(outcome, { value, done: true }),
    (error: unknown) => Object.assign(outcome, { error, done: true }),
  );
  return outcome;
}

describe('a busy store (503 with Retry-After)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    render(createElement(Toasts));
  });
  afterEach(() => {
    resetTestState();
    vi.restoreAllMocks();
  });

  it('is asked again after the wait it advised, while the customer is told it is busy', async () => {
    const game = testGame();
    const calls = stubApi({ 'GET /api/games/g1': inTurn(() => busy('2'), () => json(200, game)) });
    const outcome = settle(apiGet('/api/games/g1'));
    await act(() => vi.advanceTimersByTimeAsync(1999));
    expect(calls).toHaveLength(1);
    expect(screen.getByText(BUSY)).toBeTruthy();
    // Two seconds and a random share of them more, so turned-away clients do not all come back at once.
    await act(() => vi.advanceTimersByTimeAsync(1001));
    expect(calls).toHaveLength(2);
    expect(outcome).toEqual({ value: game, done: true });
  });

  it('gives up with the busy message after 3 more tries, saying it once', async () => {
    vi.spyOn(Math, 'random').mockReturnValue(0);
    const calls = stubApi({ 'GET /api/orders': () => busy('1') });
    const outcome = settle(apiGet('/api/orders'));
    await act(() => vi.advanceTimersByTimeAsync(3000));
    expect(calls).toHaveLength(4);
    expect(outcome.error).toBeInstanceOf(ApiError);
    expect(outcome.error).toMatchObject({ status: 503, message: BUSY });
    expect(screen.getAllByText(BUSY)).toHaveLength(1);
  });

  it('repeats a POST only when it is safe to: an order with an Idempotency-Key, a payment', async () => {
    const created = testCreatedOrder();
    const verdict = testPaymentVerdict();
    const calls = stubApi({
      'POST /api/auth/login': () => busy('0'),
      'POST /api/orders': inTurn(() => busy('0'), () => json(201, created)),
      'POST /api/payments/test/o1': inTurn(() => busy('0'), () => json(200, verdict)),
    });
    const login = settle(apiSend<unknown, LoginRequest>('POST', '/api/auth/login', { email: 'a@b.c', password: 'x' }));
    const order = settle(apiSend<unknown, CreateOrderRequest>('POST', '/api/orders', { items: [] }, { idempotencyKey: 'k1' }));
    const payment = settle(apiSend<unknown, TestPaymentRequest>('POST', '/api/payments/test/o1', TEST_CARD, { repeatable: true }));
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(login.error).toMatchObject({ status: 503, message: BUSY });
    expect(order.value).toEqual(created);
    expect(payment.value).toEqual(verdict);
    expect(calls.map((call) => call.route).sort()).toEqual([
      'POST /api/auth/login',
      'POST /api/orders',
      'POST /api/orders',
      'POST /api/payments/test/o1',
      'POST /api/payments/test/o1',
    ]);
    expect(calls.filter((call) => call.route === 'POST /api/orders').map((call) => call.idempotencyKey)).toEqual(['k1', 'k1']);
  });

  it('keeps a stored session through a busy store at page load, rather than signing the customer out', async () => {
    const calls = stubApi({ 'GET /api/users/profile': inTurn(() => busy('0'), () => json(200, testUser())) });
    act(() => {
      localStorage.setItem(STORAGE_KEYS.token, 'stored-token');
      window.dispatchEvent(new StorageEvent('storage', { key: STORAGE_KEYS.token }));
    });
    await act(() => vi.advanceTimersByTimeAsync(200));
    expect(calls).toHaveLength(2);
    expect(currentSession()).toMatchObject({ status: 'signed-in', token: 'stored-token', user: { username: 'keymaster' } });
  });

  it('does not hold a call for a wait longer than ten seconds, nor repeat a 503 that names none', async () => {
    const calls = stubApi({
      'GET /api/news': () => busy('120'),
      'GET /api/games': () => json(503, { error: 'Payment is unavailable right now. Please try again in a few minutes.' }),
    });
    await expect(apiGet('/api/news')).rejects.toMatchObject({ status: 503, message: BUSY, retryAfter: 120 });
    await expect(apiGet('/api/games')).rejects.toMatchObject({ status: 503, retryAfter: undefined });
    expect(calls).toHaveLength(2);
  });
});
