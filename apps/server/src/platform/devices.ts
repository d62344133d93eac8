import { UAParser } from 'ua-parser-js';

/** A browser's user agent as its browser ("Firefox 128") and system ("Windows 10"), each '' when unknown. */
export function browserAndSystem(userAgent: string | null | undefined): { browser: string; os: string; type: string | undefined } {
  if (!userAgent) return { browser: '', os: '', type: undefined };
  const { browser, os, device } = UAParser(userAgent);
  return { browser: [browser.name, browser.major].filter(Boolean).join(' '), os: [os.name, os.version].filter(Boolean).join(' '), type: device.type };
}

/** A browser's user agent as a short text for the sign-in history and security mails: "Firefox 128 on Windows 10", "Safari on iOS 17.5 (mobile)". */
export function deviceText(userAgent: string | null | undefined): string {
  if (!userAgent) return 'Unknown device';
  const { browser, os, type } = browserAndSystem(userAgent);
  const text = [browser, os].filter(Boolean).join(' on ');
  if (!text) return userAgent.slice(0, 60);
  return type ? `${text} (${type})` : text;
}
