import { useCallback, useEffect, useEffectEvent, useState } from 'react';
import { isAbort } from '../api/errors';

export interface Loaded<T> {
  /** The latest answer; while a newer one loads, the previous one stays shown (a list does not blink on paging). */
  data: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

/**
 * Loads what `key` names, again whenever the key changes or reload() is called; a newer load aborts the older, so
 * an answer that comes late never replaces a newer one. A null key loads nothing.
 */
export function useLoad<T>(key: string | null, load: (signal: AbortSignal) => Promise<T>): Loaded<T> {
  const [nonce, setNonce] = useState(0);
  const [result, setResult] = useState<{ key: string; data?: T; error?: unknown } | null>(null);
  const run = useEffectEvent(load);
  const current = key === null ? null : `${nonce}:${key}`;

  useEffect(() => {
    if (current === null) return;
    const controller = new AbortController();
    run(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setResult({ key: current, data });
      },
      (error: unknown) => {
        if (!controller.signal.aborted && !isAbort(error)) setResult({ key: current, error });
      },
    );
    return () => controller.abort();
  }, [current]);

  const reload = useCallback(() => setNonce((count) => count + 1), []);
  const settled = result !== null && result.key === current;
  return {
    data: result?.data,
    error: settled ? result.error : undefined,
    loading: current !== null && !settled,
    reload,
  };
}
