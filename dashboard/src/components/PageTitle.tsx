import { useEffect, useLayoutEffect, useRef, type ReactNode } from 'react';
import { useT } from '../i18n/I18nProvider';

/** Whether a screen has been shown since the page loaded: the first one leaves focus where the browser put it. */
let shownBefore = false;

/**
 * A screen's heading. It names the browser tab, and takes focus when a navigation opens the screen, so that a
 * screen reader announces the new screen as it would after a page load; on the page load itself focus stays at
 * the start of the page, with the skip link next.
 */
export function PageTitle({ children, text }: { children?: ReactNode; text: string }) {
  const t = useT();
  const ref = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    document.title = `${text} · ${t.app.name}`;
  }, [text, t]);

  // In the commit that shows the screen (a layout effect), so no keystroke typed into a field lands before it.
  useLayoutEffect(() => {
    if (shownBefore) ref.current?.focus({ preventScroll: true });
    shownBefore = true;
  }, []);

  return (
    <h1 ref={ref} tabIndex={-1} className="page-title">
      {children ?? text}
    </h1>
  );
}
