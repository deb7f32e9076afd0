import { Link as RouteLink } from 'wouter';
import type { Link } from '../../api/types';
import { CopyButton } from '../../components/CopyButton';
import { RowButton } from '../../components/RowButton';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan } from '../../session/SessionProvider';

interface LinkRowActionsProps {
  link: Link;
  mayWrite: boolean;
  onQr: () => void;
  /** Archives the link, or takes an archived one out of the archive. */
  onArchive: () => void;
  onDelete: () => void;
}

/**
 * A link's buttons: copy, QR code and stats for every reader; Edit (a page of its own), Duplicate, Archive (or
 * Unarchive) and Delete for writers.
 */
export function LinkRowActions({ link, mayWrite, onQr, onArchive, onDelete }: LinkRowActionsProps) {
  const { t } = useI18n();
  const can = useCan();
  return (
    <>
      <CopyButton text={link.short_url} what={link.short_url} />
      <RowButton name={link.short_url} onClick={onQr}>
        {t.links.qr}
      </RowButton>
      {can('stats.read') && (
        <RouteLink href={`/links/${link.id}/stats`} className="button">
          {t.links.stats} <span className="sr-only">{link.short_url}</span>
        </RouteLink>
      )}
      {mayWrite && (
        <>
          <RouteLink href={`/links/${link.id}/edit`} className="button">
            {t.common.edit} <span className="sr-only">{link.short_url}</span>
          </RouteLink>
          <RouteLink href={`/links/${link.id}/duplicate`} className="button">
            {t.links.duplicate} <span className="sr-only">{link.short_url}</span>
          </RouteLink>
          <RowButton name={link.short_url} onClick={onArchive}>
            {link.archived === 1 ? t.links.unarchive : t.links.archive}
          </RowButton>
          <RowButton name={link.short_url} danger onClick={onDelete}>
            {t.common.delete}
          </RowButton>
        </>
      )}
    </>
  );
}
