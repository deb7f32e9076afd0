import { Link as RouteLink } from 'wouter';
import { useI18n } from '../../i18n/I18nProvider';

interface LinksCountProps {
  count: number;
  /** The links list's filters that show these links (`space_id`, `tag`). */
  filter: Record<string, string>;
  /** Which links they are, said to screen readers after the number. */
  label: string;
}

/** A row's count of links (a space's, a tag's), leading to the list of those links. */
export function LinksCount({ count, filter, label }: LinksCountProps) {
  const { number } = useI18n();
  return (
    <RouteLink href={`/links?${new URLSearchParams(filter).toString()}`}>
      {number(count)} <span className="sr-only">{label}</span>
    </RouteLink>
  );
}
