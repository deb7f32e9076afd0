import type { InputHTMLAttributes } from 'react';
import type { ControlProps } from './Field';

type NumberInputProps = ControlProps & Omit<InputHTMLAttributes<HTMLInputElement>, 'type' | 'inputMode'>;

/** A number typed: the browser's number field, with the digits keypad on a phone; its bounds are the caller's. */
export function NumberInput(props: NumberInputProps) {
  return <input type="number" inputMode="numeric" {...props} />;
}
