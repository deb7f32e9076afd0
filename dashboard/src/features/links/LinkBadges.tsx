import type { Link } from '../../api/types';
import { useI18n } from '../../i18n/I18nProvider';
import { healthOf } from './health';
import type { LinkStatus } from './status';

/**
 * A link's state: its status, then Broken when the service found its destination broken (what it answered and
 * when, in the tooltip and to screen readers), then Archived for an archived one. A link found healthy, or not yet
 * checked, shows nothing more: most links are, and a badge on each would say nothing.
 */
export function LinkBadges({ link }: { link: Link & { status: LinkStatus } }) {
  const { t, dateTime } = useI18n();
  const health = healthOf(link);
  const broken =
    health.status === 'broken'
      ? t.links.brokenDetail(
          health.http_status,
          health.checked_at === null ? null : dateTime(health.checked_at),
        )
      : null;
  return (
    <>
      <span className={`badge badge-${link.status}`}>{t.links.statuses[link.status]}</span>
      {broken !== null && (
        <span className="badge badge-broken" title={broken}>
          {t.links.broken}
          <span className="sr-only"> {broken}</span>
        </span>
      )}
      {link.archived === 1 && <span className="badge badge-archived">{t.links.archivedBadge}</span>}
    </>
  );
}
