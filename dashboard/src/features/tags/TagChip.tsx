import type { TagColor } from '../../api/types';
import { useT } from '../../i18n/I18nProvider';
import { tagKey, type TagColors } from './tagNames';

/**
 * A tag's name in a chip, after a dot of its colour (the spaces' palette) when the colour is known; the colour is
 * named for those who cannot see it.
 */
export function TagChip({ name, color }: { name: string; color: TagColor | undefined }) {
  const t = useT();
  return (
    <span className="tag-chip">
      {color !== undefined && <span className={`space-dot space-color-${color}`} aria-hidden="true" />}
      {name}
      {color !== undefined && <span className="sr-only"> ({t.spaces.colors[color]})</span>}
    </span>
  );
}

/** A link's tags as chips, in their order; nothing for none. */
export function TagList({ names, colors }: { names: readonly string[]; colors: TagColors }) {
  if (names.length === 0) return null;
  return (
    <ul className="tag-list">
      {names.map((name) => (
        <li key={tagKey(name)}>
          <TagChip name={name} color={colors.get(tagKey(name))} />
        </li>
      ))}
    </ul>
  );
}
