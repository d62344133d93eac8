const time = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });

/** When an unpaid order's keys go back on the shelf, as the clock time the customer reads. */
export function ReservedUntil({ expiresAt }: { expiresAt: string }) {
  return <time dateTime={expiresAt}>{time.format(new Date(expiresAt))}</time>;
}
