import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { backtestSchema, blocklistEntrySchema, blocklistSchema, riskFiguresSchema, riskQueueSchema, riskRuleSetSchema, type BlocklistEntry, type RiskRule } from '@keystore/contract';
import { DEFAULT_RISK_RULES } from '@keystore/contract/risk-rules';
import { answer } from '../../test/contract-fixtures.ts';
import { json, renderWithQueries, resetTestState, stubApi } from '../../test/fixtures.tsx';
import { Toasts } from '../../ui/toasts.tsx';
import { AdminRiskPage } from './risk-page.tsx';

afterEach(resetTestState);

const ruleSet = (version: number, rules: readonly RiskRule[]) => answer(riskRuleSetSchema, { version, rules: [...rules], createdAt: null, createdBy: null });
const figures = (disputes: number, sales: number) =>
  answer(riskFiguresSchema, { month: '2026-11', disputes, fraudWarnings: 0, sales, ratio: sales ? disputes / sales : 0, thresholds: { alarm: 0.005, excessive: 0.015 }, alarm: sales ? disputes / sales >= 0.005 : false });
const entry = (over: Partial<BlocklistEntry> = {}) =>
  ({ _id: 'b1', kind: 'email', hint: 'f***@gmail.com', note: 'Dispute on order o1', createdAt: '2026-11-20T10:00:00Z', createdBy: null, ...over }) as BlocklistEntry;

function renderRisk() {
  renderWithQueries(
    <MemoryRouter>
      <AdminRiskPage />
      <Toasts />
    </MemoryRouter>,
  );
}

describe('the risk desk page', () => {
  it('shows the month against the thresholds, saves edited rules as the next version, and backtests them', async () => {
    let current = ruleSet(1, DEFAULT_RISK_RULES);
    const calls = stubApi({
      'GET /api/admin/risk/rules': () => current,
      'PUT /api/admin/risk/rules': (call) => {
        current = ruleSet(2, (call.body as { rules: RiskRule[] }).rules);
        return current;
      },
      'GET /api/admin/risk/figures': () => figures(1, 100),
      'GET /api/admin/risk/queue': () =>
        answer(riskQueueSchema, [
          {
            orderId: 'o9',
            placedAt: '2026-11-28T08:00:00Z',
            email: 'buyer@example.org',
            amount: 59.99,
            score: 70,
            cancelRecommended: true,
            facts: [{ signal: 'provider-risk-elevated', value: 'elevated', weight: 40, note: "The payment provider rates this payment's risk as elevated" }],
            decideBy: new Date(Date.now() + (5 * 60 + 30) * 60_000 + 30_000).toISOString(),
          },
        ]),
      'GET /api/admin/risk/blocklist': () => answer(blocklistSchema, []),
      'POST /api/admin/risk/backtest': () => answer(backtestSchema, { orders: 40, held: 3, caught: 1, delayed: 2, changed: ['o7'] }),
    });
    renderRisk();
    expect(await screen.findByText(/1 disputes and 0 fraud warnings over 100 sales/)).toBeTruthy();
    expect(screen.getByText('Alarm')).toBeTruthy();
    // The review queue: the held order, its score with "cancel recommended", why, and the time left before the store decides.
    const queue = await screen.findByRole('table', { name: 'Orders waiting for review' });
    const [, held] = within(queue).getAllByRole('row');
    expect(within(held!).getByRole('link', { name: 'Review order o9' }).getAttribute('href')).toBe('/admin/orders/o9');
    expect(held!.textContent).toContain('buyer@example.org');
    expect(held!.textContent).toContain('Cancel recommended');
    expect(held!.textContent).toContain("The payment provider rates this payment's risk as elevated");
    expect(held!.textContent).toContain('5 h 30 min');

    const weight = await screen.findByRole('spinbutton', { name: 'Weight: More than 2 copies of a title (order, or 30 days)' });
    expect((weight as HTMLInputElement).value).toBe('30');
    const save = screen.getByRole('button', { name: 'Save as version 2' });
    expect((save as HTMLButtonElement).disabled).toBe(true);
    await userEvent.clear(weight);
    await userEvent.type(weight, '20');
    await userEvent.click(save);
    expect(await screen.findByText('Rules saved as version 2.')).toBeTruthy();
    const put = calls.find((call) => call.route === 'PUT /api/admin/risk/rules')!;
    expect((put.body as { rules: RiskRule[] }).rules.find((rule) => rule.signal === 'many-copies')!.weight).toBe(20);
    expect(await screen.findByRole('button', { name: 'Save as version 3' })).toBeTruthy();

    await userEvent.click(screen.getByRole('button', { name: 'Run backtest' }));
    expect((await screen.findByRole('status')).textContent).toBe('Of 40 orders assessed, these rules would hold 3: 1 later proved fraud, 2 were good sales delayed. 1 decisions would change.');
  });

  it('blocks a value, shows only its hint, and removes it after a confirm', async () => {
    let entries: BlocklistEntry[] = [];
    const calls = stubApi({
      'GET /api/admin/risk/rules': () => ruleSet(1, DEFAULT_RISK_RULES),
      'GET /api/admin/risk/figures': () => figures(0, 0),
      'GET /api/admin/risk/queue': () => answer(riskQueueSchema, []),
      'GET /api/admin/risk/blocklist': () => answer(blocklistSchema, entries),
      'POST /api/admin/risk/blocklist': () => {
        entries = [entry({ note: 'card tester' })];
        return json(201, answer(blocklistEntrySchema, entries[0]!));
      },
      'DELETE /api/admin/risk/blocklist/b1': () => {
        entries = [];
        return new Response(null, { status: 204 });
      },
    });
    renderRisk();
    expect(await screen.findByText('Nothing is blocked.')).toBeTruthy();
    await userEvent.type(screen.getByRole('textbox', { name: 'Value' }), 'fraudster@gmail.com');
    await userEvent.type(screen.getByRole('textbox', { name: 'Note' }), 'card tester');
    await userEvent.click(screen.getByRole('button', { name: 'Block' }));
    const table = await screen.findByRole('table', { name: 'Blocked' });
    expect(within(table).getAllByRole('row').map((row) => row.textContent)).toEqual(['KindValueNoteAddedAction', 'E-mailf***@gmail.comcard tester2026-11-20 10:00Remove']);
    expect(calls.find((call) => call.route === 'POST /api/admin/risk/blocklist')!.body).toEqual({ kind: 'email', value: 'fraudster@gmail.com', note: 'card tester' });

    await userEvent.click(screen.getByRole('button', { name: 'Remove f***@gmail.com' }));
    await userEvent.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('Nothing is blocked.')).toBeTruthy();
  });
});
