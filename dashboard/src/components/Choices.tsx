import { useId, type ReactNode } from 'react';

interface ChoicesProps<T extends string> {
  legend: string;
  options: readonly T[];
  value: T;
  onChange: (value: T) => void;
  label: (option: T) => ReactNode;
  /** The options the session may not choose: shown, so that the reader learns they exist, and the hint says why. */
  disabled?: (option: T) => boolean;
  hint?: ReactNode;
}

/** One of a few options, each a radio beside its label, in a group its legend names; the arrows move between them. */
export function Choices<T extends string>({
  legend,
  options,
  value,
  onChange,
  label,
  disabled,
  hint,
}: ChoicesProps<T>) {
  const name = useId();
  return (
    <fieldset className="choices">
      <legend>{legend}</legend>
      {options.map((option) => (
        <label key={option} className="choice">
          <input
            type="radio"
            name={name}
            value={option}
            checked={value === option}
            disabled={disabled?.(option)}
            onChange={() => onChange(option)}
          />
          {label(option)}
        </label>
      ))}
      {hint ? <p className="hint">{hint}</p> : null}
    </fieldset>
  );
}
