import { useT } from '../i18n/I18nProvider';
import { useLiveState } from '../session/LiveProvider';

/**
 * Whether the screens follow the event stream: a word and a dot for the eye, a sentence for screen readers, which a
 * status region tells of each change (the live updates lost, then back).
 */
export function LiveIndicator() {
  const t = useT();
  const state = useLiveState();
  if (state === 'none') return null;
  return (
    <p className="live-indicator" role="status" data-state={state} title={t.live.described[state]}>
      <span className="live-dot" aria-hidden="true" />
      <span aria-hidden="true">{t.live.states[state]}</span>
      <span className="sr-only">{t.live.described[state]}</span>
    </p>
  );
}
