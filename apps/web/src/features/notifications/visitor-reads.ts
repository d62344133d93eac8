// Visitors' read state (SPEC §3, local storage): the ids of the public notifications read in this
// browser session, kept under the session id so a new session starts with everything unread.
import { visitorSessionId } from '../../lib/session.ts';
import { STORAGE_KEYS } from '../../lib/storage-keys.ts';

/** At most this many ids are kept; the server lists only the newest 50 anyway. */
const KEPT_IDS = 200;

const storageKey = () => `${STORAGE_KEYS.readNotifications}.${visitorSessionId()}`;

/** The ids this visitor has read. */
export function readIds(): Set<string> {
  try {
    const stored: unknown = JSON.parse(localStorage.getItem(storageKey()) ?? '[]');
    return new Set(Array.isArray(stored) ? stored.filter((id): id is string => typeof id === 'string') : []);
  } catch {
    return new Set();
  }
}

/** Adds ids to this visitor's read list. */
export function rememberRead(ids: string[]): void {
  const all = [...new Set([...readIds(), ...ids])].slice(-KEPT_IDS);
  try {
    localStorage.setItem(storageKey(), JSON.stringify(all));
  } catch {
    // Storage disabled: read marks last as long as the page.
  }
}
