// Times in the seller area's reservations and claims, in the seller's own clock: what it compares with
// its endpoint's logs and its working day ("answer by 09:05 tomorrow").

const dateTime = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', hour: '2-digit', minute: '2-digit' });
const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit' });
const moment = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit', second: '2-digit' });

const FORMATS = { 'date-time': dateTime, clock, moment } as const;

/** An ISO time as "1 Feb 2026, 10:00", "10:00" (clock) or "1 Feb, 10:00:01" (moment: a call or a change), local time. */
export function formatWhen(iso: string, format: keyof typeof FORMATS = 'date-time'): string {
  return FORMATS[format].format(new Date(iso));
}

/** A time on screen, exact for a machine. */
export function When({ iso, format = 'date-time' }: { iso: string; format?: keyof typeof FORMATS }) {
  return <time dateTime={iso}>{formatWhen(iso, format)}</time>;
}
