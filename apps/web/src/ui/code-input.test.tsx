import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { CodeInput, emptyCode } from './code-input.tsx';

function Harness({ invalid = false }: { invalid?: boolean }) {
  const [digits, setDigits] = useState(emptyCode);
  return (
    <>
      <CodeInput label="Verification code" value={digits} onChange={setDigits} invalid={invalid} />
      <output data-testid="code">{digits.map((digit) => digit || '_').join('')}</output>
    </>
  );
}

const box = (n: number) => screen.getByRole('textbox', { name: `Digit ${n} of 6` }) as HTMLInputElement;
const code = () => screen.getByTestId('code').textContent;

describe('the code input', () => {
  afterEach(cleanup);

  it('has six labelled numeric boxes in a named group', () => {
    render(<Harness />);
    expect(screen.getByRole('group', { name: 'Verification code' })).toBeTruthy();
    for (let n = 1; n <= 6; n++) expect(box(n).inputMode).toBe('numeric');
    expect(screen.getAllByRole('textbox')).toHaveLength(6);
  });

  it('moves to the next box as digits are typed and ignores anything else', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box(1));
    await user.keyboard('12a3');
    expect(code()).toBe('123___');
    expect(document.activeElement).toBe(box(4));
  });

  it('goes back and clears the previous box on Backspace in an empty box', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box(1));
    await user.keyboard('123');
    expect(document.activeElement).toBe(box(4));
    await user.keyboard('{Backspace}');
    expect(code()).toBe('12____');
    expect(document.activeElement).toBe(box(3));
    await user.keyboard('{Backspace}');
    expect(code()).toBe('1_____');
    expect(document.activeElement).toBe(box(2));
  });

  it('moves with the arrow keys and replaces a digit typed over', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box(1));
    await user.keyboard('1234');
    await user.keyboard('{ArrowLeft}{ArrowLeft}');
    expect(document.activeElement).toBe(box(3));
    await user.keyboard('9');
    expect(code()).toBe('1294__');
    await user.keyboard('{ArrowRight}');
    expect(document.activeElement).toBe(box(5));
  });

  it('fills every box when exactly six digits are pasted into any box', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box(4));
    await user.paste('482913');
    expect(code()).toBe('482913');
    expect(document.activeElement).toBe(box(6));
  });

  it('ignores a paste that is not exactly six digits', async () => {
    const user = userEvent.setup();
    render(<Harness />);
    await user.click(box(1));
    for (const text of ['12345', '1234567', '12a456', 'hello!']) await user.paste(text);
    expect(code()).toBe('______');
  });

  it('marks every box invalid for a wrong code', () => {
    render(<Harness invalid />);
    for (let n = 1; n <= 6; n++) expect(box(n).getAttribute('aria-invalid')).toBe('true');
  });
});
