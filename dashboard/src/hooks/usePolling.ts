import { useEffect, useEffectEvent } from 'react';

/**
 * Calls `poll` once `on` has held for `everyMs`, and again each time it holds anew: with `on` false while a load
 * is on its way, each answer schedules the next, so that a slow service is never asked twice at once.
 */
export function usePolling(on: boolean, poll: () => void, everyMs: number): void {
  const tick = useEffectEvent(poll);
  useEffect(() => {
    if (!on) return;
    const timer = setTimeout(() => tick(), everyMs);
    return () => clearTimeout(timer);
  }, [on, everyMs]);
}
