import { useEffect, useEffectEvent, useState } from 'react';
import { useDebouncedValue } from './useDebouncedValue';

const SETTLE_DELAY_MS = 300;

/**
 * A text field kept in the address: what is typed reaches `onSettled` once typing pauses (one request per pause,
 * not per key), and the field follows the address when it changes by other means (Back, a link to the bare list).
 */
export function useSettledText(
  addressed: string,
  onSettled: (value: string) => void,
): [string, (value: string) => void] {
  const [text, setText] = useState(addressed);
  const [followed, setFollowed] = useState(addressed);
  if (addressed !== followed) {
    setFollowed(addressed);
    setText(addressed);
  }
  const settled = useDebouncedValue(text, SETTLE_DELAY_MS);

  // Only a new pause sends, never a change of address.
  const send = useEffectEvent((value: string) => {
    if (value !== addressed) onSettled(value);
  });
  useEffect(() => send(settled), [settled]);

  return [text, setText];
}
