import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Order } from '@keystore/contract';
import { testHistoryEntry, testOrder, testOrderLine } from '../../test/contract-fixtures.ts';
import { json, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { OrderDetails } from './order-details.tsx';

const entry = testHistoryEntry({ items: 'Hades x2', image: '', status: 'Awaiting payment', deliveryStatus: 'Not delivered', amount: 25 });

function order(status: Order['status'], deliveryStatus: Order['deliveryStatus'], expiresInMs = 20 * 60_000): Order {
  return testOrder({
    ...entry,
    status,
    deliveryStatus,
    currency: 'EUR',
    createdAt: entry.date,
    expiresAt: new Date(Date.now() + expiresInMs).toISOString(),
    lines: [testOrderLine({ image: '', platform: 'Steam', quantity: 2, unitPrice: 12.5 })],
  });
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
