import { useEffect, useLayoutEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';

const storageKey = 'keystore.scroll';
const positions = new Map<string, number>(readSaved());

function readSaved(): [string, number][] {
  try {
    return JSON.parse(sessionStorage.getItem(storageKey) ?? '[]') as [string, number][];
  } catch {
    return [];
  }
}

/**
 * What a multi-page site does on its own: a new page starts at the top (or at its #anchor), and
 * Back or Forward returns to where the reader was on that entry, across a reload too.
 */
export function useScrollRestoration(): void {
  const location = useLocation();
  const navigationType = useNavigationType();

  useEffect(() => {
    window.history.scrollRestoration = 'manual';
    let frame = 0;
    const remember = () => {
      cancelAnimationFrame(frame);
      frame = requestAnimationFrame(() => positions.set(window.history.state?.key ?? 'default', window.scrollY));
    };
    const save = () => {
      // Only the newest entries matter: a session's history is bounded, the storage is not.
      sessionStorage.setItem(storageKey, JSON.stringify([...positions].slice(-50)));
    };
    window.addEventListener('scroll', remember, { passive: true });
    window.addEventListener('pagehide', save);
    return () => {
      window.removeEventListener('scroll', remember);
      window.removeEventListener('pagehide', save);
    };
  }, []);

  useLayoutEffect(() => {
    const saved = positions.get(location.key);
    if (navigationType === 'POP' && saved !== undefined) {
      window.scrollTo(0, saved);
      return;
    }
    const anchor = location.hash && document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (anchor) anchor.scrollIntoView();
    else window.scrollTo(0, 0);
  }, [location.key, location.hash, navigationType]);
}
