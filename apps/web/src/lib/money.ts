const euro = new Intl.NumberFormat('en-IE', { style: 'currency', currency: 'EUR', minimumFractionDigits: 2 });

/** A euro amount as the store shows it everywhere: "€19.99". */
export function formatEuro(amount: number): string {
  return euro.format(amount);
}
