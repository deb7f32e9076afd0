import type { Space } from '../../api/types';
import { useT } from '../../i18n/I18nProvider';

/** A space's name after a dot of its colour; the colour is named for those who cannot see it. */
export function SpaceName({ space }: { space: Pick<Space, 'name' | 'color'> | null }) {
  const t = useT();
  if (space === null) return <span className="muted">{t.links.noSpace}</span>;
  return (
    <span className="space-name">
      <span className={`space-dot space-color-${space.color}`} aria-hidden="true" />
      {space.name}
      <span className="sr-only"> ({t.spaces.colors[space.color]})</span>
    </span>
  );
}
