import { useEffect, useState } from 'react';
import { useT } from '../i18n/I18nProvider';
import { useNotify } from './Notifications';

/** Puts `text` on the clipboard; throws when the browser refuses. */
export async function writeClipboard(text: string): Promise<void> {
  if (navigator.clipboard) {
    await navigator.clipboard.writeText(text);
    return;
  }
  // Without the Clipboard API (a page served over plain HTTP from another host), the older command still works.
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.className = 'offscreen';
  document.body.append(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  if (!copied) throw new Error('copy refused');
}

interface CopyButtonProps {
  text: string;
  /** What is copied, for the button's accessible name: "Copy" alone is ambiguous in a list. */
  what: string;
  className?: string;
}

export function CopyButton({ text, what, className }: CopyButtonProps) {
  const t = useT();
  const notify = useNotify();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');

  useEffect(() => {
    if (state === 'idle') return;
    const timer = setTimeout(() => setState('idle'), 2000);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async () => {
    try {
      await writeClipboard(text);
      setState('copied');
      notify(t.common.copiedWhat(what));
    } catch {
      setState('failed');
      notify(t.common.copyFailed);
    }
  };

  return (
    <button type="button" className={className} onClick={() => void copy()} data-state={state}>
      {state === 'copied' ? t.common.copied : state === 'failed' ? t.common.copyFailedShort : t.common.copy}{' '}
      <span className="sr-only">{what}</span>
    </button>
  );
}
