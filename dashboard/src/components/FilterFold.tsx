import { useId, useState, type ReactNode } from 'react';
import { useI18n } from '../i18n/I18nProvider';

interface FilterFoldProps {
  /** How many of the filters inside narrow the list now. */
  active: number;
  children: ReactNode;
}

/**
 * A list's filters, folded behind a "Filters" button on narrow screens (the stylesheet shows the button and hides
 * the folded filters below 640 px alone): a phone shows the list, not a wall of pickers.
 */
export function FilterFold({ active, children }: FilterFoldProps) {
  const { t, number } = useI18n();
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <>
      <button
        type="button"
        className="filter-fold-toggle"
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen(!open)}
      >
        {t.filterFold.button}
        {active > 0 && ' '}
        {active > 0 && <span className="badge">{t.filterFold.active(number(active))}</span>}
      </button>
      <div id={id} className="filter-fold" data-open={open}>
        {children}
      </div>
    </>
  );
}
