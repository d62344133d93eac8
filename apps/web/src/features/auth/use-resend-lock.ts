import { useEffect, useState } from 'react';
import { RESEND_LOCK_SECONDS } from '@keystore/contract/constants';

/**
 * The resend lock of SPEC §4: after a code is resent (or the server answers 429 with Retry-After)
 * the Resend button waits, counting the seconds down where the user can see them. The count is
 * taken from a deadline, so a throttled background tab still unlocks on time.
 */
export function useResendLock(): { secondsLeft: number; lock: (seconds?: number) => void } {
  const [secondsLeft, setSecondsLeft] = useState(0);
  const [deadline, setDeadline] = useState<number | null>(null);
  useEffect(() => {
    if (deadline === null) return;
    const timer = setInterval(() => {
      const left = Math.max(0, Math.ceil((deadline - Date.now()) / 1000));
      setSecondsLeft(left);
      if (left === 0) setDeadline(null);
    }, 1000);
    return () => clearInterval(timer);
  }, [deadline]);

  const lock = (seconds = RESEND_LOCK_SECONDS) => {
    const whole = Math.ceil(seconds);
    setSecondsLeft(whole);
    setDeadline(Date.now() + whole * 1000);
  };
  return { secondsLeft, lock };
}
