import { useQuery } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { useSearchParams } from 'react-router';
import type { DeliveryStatus, OrderStatus } from '@keystore/contract';
import { DELIVERY_STATUSES, ORDER_STATUSES } from '@keystore/contract/constants';
import { messageOf } from '../../lib/api.ts';
import { showToast } from '../../ui/toasts.tsx';
import { AdminPage, Pager } from './admin-ui.tsx';
import { downloadOrdersCsv, ordersCsvHref, ordersQuery, type OrderFilters } from './api.ts';
import { OrdersTable } from './orders-table.tsx';
import buttons from '../../ui/buttons.module.css';
import styles from './admin.module.css';

const isStatus = (value: string | null): value is OrderStatus => ORDER_STATUSES.some((status) => status === value);
const isDelivery = (value: string | null): value is DeliveryStatus => DELIVERY_STATUSES.some((status) => status === value);

/** The filters the address holds, so a filtered page can be shared and Back returns to it. */
function filtersOf(params: URLSearchParams): OrderFilters {
  const status = params.get('status');
  const deliveryStatus = params.get('deliveryStatus');
  return {
    status: isStatus(status) ? status : undefined,
    deliveryStatus: isDelivery(deliveryStatus) ? deliveryStatus : undefined,
    q: params.get('q') ?? undefined,
    from: params.get('from') ?? undefined,
    to: params.get('to') ?? undefined,
    // Page 1 is the address without a page, and so is the API's call.
    page: Number(params.get('page')) > 1 ? Number(params.get('page')) : undefined,
  };
}

/** Every order, newest first, with filters, paging and the CSV export of what they select. */
export function AdminOrdersPage() {
  const [params, setParams] = useSearchParams();
  const filters = filtersOf(params);
  const orders = useQuery(ordersQuery(filters));

  const show = (next: OrderFilters) => {
    const search = new URLSearchParams();
    for (const [name, value] of Object.entries(next)) if (value !== undefined && value !== '' && !(name === 'page' && value === 1)) search.set(name, String(value));
    setParams(search);
  };
  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => String(form.get(name) ?? '').trim() || undefined;
        const status = text('status') ?? null;
    const deliveryStatus = text('deliveryStatus') ?? null;
    show({
      status: isStatus(status) ? status : undefined,
      deliveryStatus: isDelivery(deliveryStatus) ? deliveryStatus : undefined,
      q: text('q'),
      from: text('from'),
      to: text('to'),
    });
  };

  const csv = (
    <a
      className={buttons.secondary}
      href={ordersCsvHref(filters)}
      download="orders.csv"
      onClick={(event) => {
        // The API wants the session's bearer token, which a plain link does not send: fetch, then save.
        event.preventDefault();
        downloadOrdersCsv(filters).catch((error: unknown) => showToast(messageOf(error, 'The export failed. Please try again.'), 'error'));
      }}
    >
      Export CSV
    </a>
  );
  return (
    <AdminPage title="Orders" actions={csv}>
      {/* Keyed by the address, so Back or a link puts the filters' fields in step with the table. */}
      <form key={params.toString()} className={styles.filters} onSubmit={apply} role="search" aria-label="Filter orders">
        <div className={styles.field}>
          <label htmlFor="orders-q">Search</label>
          <input id="orders-q" name="q" type="search" defaultValue={filters.q} placeholder="Order, e-mail, username, game" />
        </div>
        <div className={styles.field}>
          <label htmlFor="orders-status">Status</label>
          <select id="orders-status" name="status" defaultValue={filters.status ?? ''}>
            <option value="">Any</option>
            {ORDER_STATUSES.map((status) => (
              <option key={status}>{status}</option>
            ))}
          </select>
        </div>
        <div className={styles.field}>
          <label htmlFor="orders-delivery">Delivery</label>
          <select id="orders-delivery" name="deliveryStatus" defaultValue={filters.deliveryStatus ?? ''}>
            <option value="">Any</option>
            {DELIVERY_STATUSES.map((status) => (
              <option key={status}>{status}</option>
            ))}
          </select>
        </div>
        <div className={styles.field}>
          <label htmlFor="orders-from">From</label>
          <input id="orders-from" name="from" type="date" defaultValue={filters.from} />
        </div>
        <div className={styles.field}>
          <label htmlFor="orders-to">To</label>
          <input id="orders-to" name="to" type="date" defaultValue={filters.to} />
        </div>
        <button type="submit" className={buttons.primary}>
          Apply filters
        </button>
      </form>
      {orders.isPending && (
        <p className={styles.muted} role="status">
          Loading…
        </p>
      )}
      {orders.isError && (
        <p className={styles.problem} role="alert">
          {messageOf(orders.error, 'Could not load the orders. Please try again.')}
        </p>
      )}
      {orders.data && (
        <>
          <OrdersTable
            caption="Orders, newest first"
            captionHidden
            label="Orders"
            withBuyer
            busy={orders.isPlaceholderData}
            rows={orders.data.items.map((order) => ({ ...order, at: order.createdAt, buyer: order.buyer.email ?? order.buyer.username ?? undefined }))}
          />
          {orders.data.items.length === 0 && <p className={`${styles.muted} ${styles.panel}`}>No orders match these filters.</p>}
          <Pager page={orders.data.page} pageSize={orders.data.pageSize} total={orders.data.total} onPage={(page) => show({ ...filters, page })} />
        </>
      )}
    </AdminPage>
  );
}
