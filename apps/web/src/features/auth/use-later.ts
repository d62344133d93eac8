import { useEffect, useRef } from 'react';

/**
 * Runs a step of the dialog flow a moment later (SPEC §4: login 1.5 s after a verified code, the
 * forgot dialog closing after 2 s). Nothing runs once the dialog is gone, so closing it early does
 * not reopen anything.
 */
export function useLater(): (step: () => void, delayMs: number) => void {
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  return (step, delayMs) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(step, delayMs);
  };
}
