import { useEffect, useRef, type ReactNode } from 'react';
import { useT } from '../i18n/I18nProvider';

/**
 * A screen's heading. It names the browser tab, and takes focus when the screen opens so that a screen reader
 * announces the new screen after a client-side navigation, as it would after a page load.
 */
export function PageTitle({ children, text }: { children?: ReactNode; text: string }) {
  const t = useT();
  const ref = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    document.title = `${text} · ${t.app.name}`;
  }, [text, t]);

  useEffect(() => {
    ref.current?.focus({ preventScroll: true });
  }, []);

  return (
    <h1 ref={ref} tabIndex={-1} className="page-title">
      {children ?? text}
    </h1>
  );
}
