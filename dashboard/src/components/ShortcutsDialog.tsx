import { Fragment } from 'react';
import { useT } from '../i18n/I18nProvider';
import { Dialog } from './Dialog';

/** A shortcut as the overlay lists it: its keys (any one of them) and what it does. */
export interface ShortcutHelp {
  keys: readonly string[];
  label: string;
}

/** The shortcuts of a page, opened by `?`: a dialog, so focus stays in it and Escape closes it. */
export function ShortcutsDialog({
  shortcuts,
  onClose,
}: {
  shortcuts: readonly ShortcutHelp[];
  onClose: () => void;
}) {
  const t = useT();
  return (
    <Dialog title={t.shortcuts.title} onClose={onClose}>
      <table className="shortcuts-table">
        <caption className="sr-only">{t.shortcuts.title}</caption>
        <thead>
          <tr>
            <th scope="col">{t.shortcuts.key}</th>
            <th scope="col">{t.shortcuts.action}</th>
          </tr>
        </thead>
        <tbody>
          {shortcuts.map((shortcut) => (
            <tr key={shortcut.label}>
              <td>
                {shortcut.keys.map((key, index) => (
                  <Fragment key={key}>
                    {index > 0 && ` ${t.shortcuts.or} `}
                    <kbd>{key}</kbd>
                  </Fragment>
                ))}
              </td>
              <td>{shortcut.label}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="dialog-actions">
        <button type="button" onClick={onClose} data-autofocus>
          {t.shortcuts.close}
        </button>
      </div>
    </Dialog>
  );
}
