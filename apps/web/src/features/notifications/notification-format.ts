// How a notification reads on screen (SPEC §2, §3, §9).

const pad = (value: number) => String(value).padStart(2, '0');

/** 'HH:MM DD.MM.YY' in the reader's time zone (the server sends the instant, not a display string). */
export function formatNotificationTime(rawTimestamp: number): string {
  const at = new Date(rawTimestamp);
  return `${pad(at.getHours())}:${pad(at.getMinutes())} ${pad(at.getDate())}.${pad(at.getMonth() + 1)}.${pad(at.getFullYear() % 100)}`;
}

/** The text without one pair of surrounding double quotes (SPEC §2: titles and texts may arrive quoted). */
export function stripQuotes(text: string): string {
  const trimmed = text.trim();
  return trimmed.length >= 2 && /^["“].*["”]$/s.test(trimmed) ? trimmed.slice(1, -1).trim() : trimmed;
}
