// Formatted by hand rather than with Intl.NumberFormat: creating the formatter loads ICU data and
// costs 75–185 ms of main-thread time on a throttled phone before the first paint (bench/lighthouse.ts).

/** A euro amount as the store shows it everywhere: "€19.99", "€1,249.00", "-€5.00". */
export function formatEuro(amount: number): string {
  const cents = Math.round(Math.abs(amount) * 100);
  const whole = Math.floor(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = (cents % 100).toString().padStart(2, '0');
  return `${amount < 0 && cents > 0 ? '-' : ''}€${whole}.${fraction}`;
}
