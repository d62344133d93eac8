import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import { MembershipStats } from './membership-stats.tsx';
import { testUser } from '../../test/contract-fixtures.ts';

afterEach(cleanup);

const value = (term: RegExp) => screen.getByText(term, { selector: 'dt' }).nextElementSibling!.textContent;

describe('the membership figures', () => {
  it('shows the real level, games and spend in euro', () => {
    render(<MembershipStats user={testUser({ membership: 'Loot Veteran', totalGames: 14, totalSpent: 312.5 })} />);
    expect(value(/Membership level/)).toBe('Loot Veteran');
    expect(value(/Games purchased/)).toBe('14');
    expect(value(/Total spent/)).toBe('€312.50');
  });

  it('lists the tiers with their ranges in a tooltip that keyboard and pointer users can open', async () => {
    const user = userEvent.setup();
    render(<MembershipStats user={testUser()} />);
    const trigger = screen.getByRole('button', { name: 'Membership levels' });
    expect(screen.queryByRole('tooltip')).toBeNull();

    await user.tab();
    expect(document.activeElement).toBe(trigger);
    const tooltip = screen.getByRole('tooltip');
    expect(trigger.getAttribute('aria-describedby')).toBe(tooltip.id);
    expect([...tooltip.children].slice(1).map((tier) => [...tier.children].map((part) => part.textContent))).toEqual([
      ['Key Newb', 'up to €100'],
      ['Bundle Raider', '€100–€250'],
      ['Loot Veteran', '€250–€400'],
      ['Deal Architect', '€400–€800'],
      ['Cart King', '€800+'],
    ]);

    await user.keyboard('{Escape}');
    expect(screen.queryByRole('tooltip')).toBeNull();
    await user.tab();
    await user.hover(trigger);
    expect(screen.getByRole('tooltip')).toBeTruthy();
    await user.unhover(trigger);
    expect(screen.queryByRole('tooltip')).toBeNull();
  });
});
