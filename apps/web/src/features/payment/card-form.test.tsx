import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetTestState } from '../../test/fixtures.tsx';
import { CardForm } from './card-form.tsx';

afterEach(resetTestState);

describe('the card form', () => {
  it('checks every field on submit, focuses the first with a problem, and drops a problem once its field changes', async () => {
    const user = userEvent.setup();
    const onPay = vi.fn();
    render(<CardForm busy={false} submitLabel="Pay €25.00" onPay={onPay} />);
    await user.type(screen.getByLabelText('Card number'), '4242424242424242');
    await user.click(screen.getByRole('button', { name: 'Pay €25.00' }));

    const expiry = screen.getByLabelText('Expiry (MM/YY)');
    expect(document.activeElement).toBe(expiry);
    expect(expiry.getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('CVC').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Name on card').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Card number').getAttribute('aria-invalid')).toBeNull();

    await user.type(expiry, '1');
    expect(expiry.getAttribute('aria-invalid')).toBeNull();
    expect(screen.getByLabelText('CVC').getAttribute('aria-invalid')).toBe('true');

    await user.type(expiry, '239');
    expect((expiry as HTMLInputElement).value).toBe('12/39');
    await user.type(screen.getByLabelText('CVC'), '123');
    await user.type(screen.getByLabelText('Name on card'), 'Ada Player');
    await user.click(screen.getByRole('button', { name: 'Pay €25.00' }));
    expect(onPay).toHaveBeenCalledWith({ cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123', name: 'Ada Player' });
  });
});
