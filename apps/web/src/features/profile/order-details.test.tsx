import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PurchaseHistoryEntry } from '@keystore/contract';
import { json, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { OrderDetails } from './order-details.tsx';

const entry: PurchaseHistoryEntry = { _id: 'o1', items: 'Hades x2', image: '', date: '2026-11-22T08:00:00Z', status: 'Awaiting payment', deliveryStatus: 'Not delivered', currency: 'EUR', amount: 25 };

function order(status: string, deliveryStatus: string, expiresInMs = 20 * 60_000) {
  return {
    ...entry,
    status,
    deliveryStatus,
    createdAt: entry.date,
    expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
    declineReason: null,
    lines: [{ gameId: 'g1', title: 'Hades', image: '', platform: 'Steam', quantity: 2, unitPrice: 12.5, amount: 25, keysDelivered: 0 }],
  };
}

function renderDetails() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <OrderDetails entry={entry} onClose={vi.fn()} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

const fact = (term: string) => screen.getByText(term, { selector: 'dt' }).nextElementSibling!.textContent;

afterEach(resetTestState);

describe('the order details', () => {
  it("offers 'Pay now' for an order still awaiting payment", async () => {
    stubApi({ 'GET /api/orders/o1': () => json(200, order('Awaiting payment', 'Pending')) });
    renderDetails();
    expect((await screen.findByRole('link', { name: 'Pay now' })).getAttribute('href')).toBe('/pay/o1');
    expect(screen.getByRole('dialog', { name: 'Order details' })).toBeTruthy();
    expect(screen.getByText('2 × €12.50')).toBeTruthy();
    expect(fact('Payment')).toBe('Awaiting payment');
    expect(fact('Delivery')).toBe('Not delivered');
    expect(fact('Amount')).toBe('€25.00');
  });

  it('sends a paid order to the library, and a lapsed one nowhere', async () => {
    stubApi({ 'GET /api/orders/o1': () => json(200, order('Paid', 'Delivered')) });
    renderDetails();
    expect((await screen.findByRole('link', { name: 'Your keys are in the Library' })).getAttribute('href')).toBe('/library');
    expect(fact('Delivery')).toBe('Delivered');
    expect(screen.queryByRole('link', { name: 'Pay now' })).toBeNull();
    resetTestState();

    stubApi({ 'GET /api/orders/o1': () => json(200, order('Awaiting payment', 'Pending', -1000)) });
    renderDetails();
    expect(await screen.findByText('Awaiting payment', { selector: 'dd' })).toBeTruthy();
    expect(screen.queryByRole('link', { name: 'Pay now' })).toBeNull();
  });
});
