import { useId, useRef, useState, type KeyboardEvent } from 'react';
import { api, call } from '../../api/client';
import { Field } from '../../components/Field';
import { useDebouncedValue } from '../../hooks/useDebouncedValue';
import { useLoad } from '../../hooks/useLoad';
import { useT } from '../../i18n/I18nProvider';
import { TagChip } from './TagChip';
import { MAX_LINK_TAGS, MAX_TAG_NAME, tagKey, type TagColors } from './tagNames';

const SEARCH_DELAY_MS = 200;

interface TagInputProps {
  label: string;
  value: readonly string[];
  onChange: (names: string[]) => void;
  /** The colours of the tags known so far, for the chips. */
  colors: TagColors;
  hint?: string | undefined;
  errors?: readonly string[] | undefined;
  /** Called when the tags change, so that the API's messages about those sent can be forgotten. */
  onEdit?: (() => void) | undefined;
  className?: string;
  max?: number;
  /** Whether a dialog opened for it starts at the field rather than at its first chip's remove button. */
  focusFirst?: boolean;
}

/**
 * Tags by name: a name typed and Enter or a comma adds it (once, whatever its case), the workspace's tags that
 * match what is typed are offered below (a combobox: arrows choose, Enter takes), and each chip has its remove
 * button. At most `max`; the hint says so once they are all there.
 */
export function TagInput({
  label,
  value,
  onChange,
  colors,
  hint,
  errors,
  onEdit,
  className,
  max = MAX_LINK_TAGS,
  focusFirst = false,
}: TagInputProps) {
  const t = useT();
  const listId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const full = value.length >= max;

  const search = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  const found = useLoad(open && search !== '' ? `tags:${search}` : null, (signal) =>
    call(
      api.GET('/api/v1/tags', {
        params: { query: { search, sort_by: 'name', sort: 'asc', per_page: 10 } },
        signal,
      }),
    ),
  );
  const known = found.data?.data ?? [];
  const chosen = new Set(value.map(tagKey));
  const suggestions = text.trim() === '' ? [] : known.filter((tag) => !chosen.has(tagKey(tag.name)));
  const shown = open && suggestions.length > 0;

  const change = (names: string[]) => {
    onChange(names);
    onEdit?.();
  };

  /** Adds the names not there yet, as the workspace writes them when it has them, up to `max`. */
  const add = (names: readonly string[]) => {
    const next = [...value];
    const keys = new Set(next.map(tagKey));
    for (const typed of names) {
      const name = typed.trim();
      if (name === '' || keys.has(tagKey(name))) continue;
      if (next.length >= max) break;
      next.push(known.find((tag) => tagKey(tag.name) === tagKey(name))?.name ?? name);
      keys.add(tagKey(name));
    }
    if (next.length !== value.length) change(next);
    setActive(-1);
  };

  /** Takes what is typed (or the suggestion chosen); a full list takes nothing and keeps the text. */
  const commit = (names: readonly string[]) => {
    if (full) return;
    add(names);
    setText('');
  };

  const remove = (name: string) => {
    change(value.filter((other) => other !== name));
    // The button goes with its chip: the keyboard goes on from the field.
    inputRef.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const chosenSuggestion = shown ? suggestions[active] : undefined;
    switch (event.key) {
      case 'Enter':
        // An empty field leaves Enter to the form (it saves).
        if (chosenSuggestion === undefined && text.trim() === '') return;
        event.preventDefault();
        commit([chosenSuggestion?.name ?? text]);
        return;
      case ',':
        event.preventDefault();
        commit([text]);
        return;
      case 'ArrowDown':
      case 'ArrowUp': {
        if (suggestions.length === 0) return;
        event.preventDefault();
        setOpen(true);
        const next = active + (event.key === 'ArrowDown' ? 1 : -1);
        setActive(next < 0 ? suggestions.length - 1 : next >= suggestions.length ? 0 : next);
        return;
      }
      case 'Escape':
        // The suggestions close first; a second Escape is the dialog's, if any.
        if (!shown) return;
        event.preventDefault();
        event.stopPropagation();
        setOpen(false);
        setActive(-1);
        return;
    }
  };

  return (
    <Field
      label={label}
      hint={full ? t.tags.full(max) : hint}
      errors={errors}
      className={className ? `tag-field ${className}` : 'tag-field'}
    >
      {(control) => (
        <div className="tag-input">
          {value.length > 0 && (
            <ul className="tag-list" aria-label={t.tags.chosen}>
              {value.map((name) => (
                <li key={tagKey(name)}>
                  <TagChip name={name} color={colors.get(tagKey(name))} />
                  <button
                    type="button"
                    className="tag-remove"
                    aria-label={t.tags.remove(name)}
                    onClick={() => remove(name)}
                  >
                    <span aria-hidden="true">×</span>
                  </button>
                </li>
              ))}
            </ul>
          )}
          <div className="tag-combobox">
            <input
              {...control}
              ref={inputRef}
              type="text"
              role="combobox"
              data-autofocus={focusFirst || undefined}
              aria-autocomplete="list"
              aria-expanded={shown}
              aria-controls={shown ? listId : undefined}
              aria-activedescendant={shown && active >= 0 ? `${listId}-${active}` : undefined}
              autoComplete="off"
              maxLength={MAX_TAG_NAME}
              value={text}
              onChange={(event) => {
                const typed = event.target.value;
                setOpen(true);
                setActive(-1);
                // Pasted names separated by commas are each added; what follows the last comma is still typed.
                if (typed.includes(',') && !full) {
                  const names = typed.split(',');
                  const rest = names.pop() ?? '';
                  add(names);
                  setText(rest.trimStart());
                } else setText(typed);
              }}
              onKeyDown={onKeyDown}
              onFocus={() => setOpen(true)}
              onBlur={() => {
                setOpen(false);
                // A name typed and left is meant, as if Enter had been pressed.
                if (text.trim() !== '') commit([text]);
              }}
            />
            {shown && (
              <div id={listId} role="listbox" aria-label={t.tags.suggestions} className="tag-suggestions">
                {suggestions.map((tag, index) => (
                  // The field keeps the focus (the keyboard works there); a click takes the tag.
                  // eslint-disable-next-line jsx-a11y/click-events-have-key-events
                  <div
                    key={tag.id}
                    id={`${listId}-${index}`}
                    role="option"
                    tabIndex={-1}
                    aria-selected={index === active}
                    onMouseDown={(event) => event.preventDefault()}
                    onClick={() => commit([tag.name])}
                  >
                    <TagChip name={tag.name} color={tag.color} />
                  </div>
                ))}
              </div>
            )}
          </div>
        </div>
      )}
    </Field>
  );
}
