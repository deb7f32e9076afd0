import { useEffect, useEffectEvent } from 'react';

/** What a key does: called with the event, whose default is then prevented unless it answers false (not for it). */
export type Shortcuts = Partial<Record<string, (event: KeyboardEvent) => boolean | void>>;

/** Inputs that take no typing: a key pressed on them is meant for the page. */
const NOT_TYPED = new Set(['checkbox', 'radio', 'button', 'submit', 'reset']);

/** Whether a key pressed on `target` is typing: into a text field, a select or an editable element. */
export function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.closest('[contenteditable=""], [contenteditable="true"]') !== null)
    return true;
  if (target instanceof HTMLInputElement) return !NOT_TYPED.has(target.type);
  return target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement;
}

/**
 * Single-key shortcuts of a page, by `event.key` ("n", "?", "ArrowDown", "Delete"). None fires while typing, with
 * Ctrl, Meta or Alt held (the browser's and the system's own), or while a dialog is open (its keys are its own).
 */
export function useShortcuts(shortcuts: Shortcuts, enabled = true): void {
  const onKey = useEffectEvent((event: KeyboardEvent) => {
    if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return;
    if (isTyping(event.target) || document.querySelector('dialog[open]') !== null) return;
    const action = shortcuts[event.key];
    if (action !== undefined && action(event) !== false) event.preventDefault();
  });
  useEffect(() => {
    if (!enabled) return;
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [enabled]);
}
