import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';

const SHOWN_MS = 4000;

const NotifyContext = createContext<(message: string) => void>(() => undefined);

/** Short confirmations ("Link saved", "Copied"), shown for a moment and read out by screen readers. */
export function NotificationsProvider({ children }: { children: ReactNode }) {
  const [notice, setNotice] = useState<{ id: number; text: string } | null>(null);

  const notify = useCallback(
    (text: string) => setNotice((previous) => ({ id: (previous?.id ?? 0) + 1, text })),
    [],
  );

  useEffect(() => {
    if (notice === null) return;
    const timer = setTimeout(() => setNotice(null), SHOWN_MS);
    return () => clearTimeout(timer);
  }, [notice]);

  return (
    <NotifyContext.Provider value={notify}>
      {children}
      <div role="status" aria-live="polite" className="toast-region">
        {notice !== null && (
          <p key={notice.id} className="toast">
            {notice.text}
          </p>
        )}
      </div>
    </NotifyContext.Provider>
  );
}

export function useNotify(): (message: string) => void {
  return useContext(NotifyContext);
}
