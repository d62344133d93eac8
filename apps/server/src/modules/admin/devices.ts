import { UAParser } from 'ua-parser-js';

/** A browser's user agent as a short text for the sign-in history: "Firefox 128 on Windows 10", "Safari on iOS 17.5 (mobile)". */
export function deviceText(userAgent: string | null): string {
  if (!userAgent) return 'Unknown device';
  const { browser, os, device } = UAParser(userAgent);
  const name = [browser.name, browser.major].filter(Boolean).join(' ');
  const system = [os.name, os.version].filter(Boolean).join(' ');
  const text = [name, system].filter(Boolean).join(' on ');
  if (!text) return userAgent.slice(0, 60);
  return device.type ? `${text} (${device.type})` : text;
}
