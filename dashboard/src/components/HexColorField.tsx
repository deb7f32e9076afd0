import type { ReactNode } from 'react';
import { Field } from './Field';

interface HexColorFieldProps {
  label: string;
  /** The name of the browser's colour picker beside the text: it has no label of its own. */
  pickerLabel: string;
  /** The colour as typed, `#rrggbb` when it is one. */
  value: string;
  /** The same colour as the picker takes it (`#rrggbb`), or null while what is typed is not one. */
  picked: string | null;
  onChange: (value: string) => void;
  hint?: ReactNode;
  errors?: readonly string[] | undefined;
}

/**
 * Any colour, typed as six hex digits or picked with the browser's picker: the text is the way in by keyboard and
 * the one the label names, the picker a shortcut for the mouse; each follows the other.
 */
export function HexColorField({
  label,
  pickerLabel,
  value,
  picked,
  onChange,
  hint,
  errors,
}: HexColorFieldProps) {
  return (
    <Field label={label} hint={hint} errors={errors}>
      {(control) => (
        <span className="hex-color">
          <input
            {...control}
            value={value}
            maxLength={7}
            spellCheck={false}
            autoComplete="off"
            onChange={(event) => onChange(event.target.value)}
          />
          <input
            type="color"
            aria-label={pickerLabel}
            value={picked ?? '#000000'}
            onChange={(event) => onChange(event.target.value)}
          />
        </span>
      )}
    </Field>
  );
}
