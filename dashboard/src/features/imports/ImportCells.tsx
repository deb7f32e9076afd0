import type { ImportJob, ImportStatus } from '../../api/types';
import { ProgressBar } from '../../components/ProgressBar';
import { useI18n } from '../../i18n/I18nProvider';
import { importName, isActive } from './sources';

const STATUS_BADGES: Record<ImportStatus, string> = {
  queued: 'badge',
  running: 'badge badge-running',
  done: 'badge badge-active',
  failed: 'badge badge-disabled',
  cancelled: 'badge badge-expired',
};

/** What the counts of an import's progress are said as, in this order. */
const COUNTS = [
  'links_created',
  'links_updated',
  'links_skipped',
  'links_failed',
  'clicks_imported',
] as const;

/** An import's status, in words. */
export function ImportStatusBadge({ job }: { job: ImportJob }) {
  const { t } = useI18n();
  return (
    <>
      <span className={STATUS_BADGES[job.status]}>{t.imports.statuses[job.status]}</span>
      {job.dry_run === 1 && <span className="badge">{t.imports.dryRunBadge}</span>}
    </>
  );
}

/**
 * The links read of the links the source holds, as a bar; while the source has not said how many it holds, an
 * import still going is indeterminate, and one that ended has read what there was.
 */
export function ImportProgressBar({ job }: { job: ImportJob }) {
  const { t, number } = useI18n();
  const { links_done: done, links_total: total } = job.progress;
  const max = total ?? (isActive(job) ? null : done);
  return (
    <ProgressBar
      label={t.imports.progressOf(importName(job))}
      value={done}
      max={max}
      text={max === null ? t.imports.linksRead(number(done)) : t.imports.linksOf(number(done), number(max))}
    />
  );
}

/** The links created, updated, skipped and failed, and the clicks brought. */
export function ImportCounts({ job }: { job: ImportJob }) {
  const { t, number } = useI18n();
  return (
    <ul className="counts">
      {COUNTS.map((count) => (
        <li key={count}>{t.imports.counts[count](job.progress[count], number(job.progress[count]))}</li>
      ))}
    </ul>
  );
}

/** The problems an import met (the first 100), folded under their number. */
export function ImportErrors({ job }: { job: ImportJob }) {
  const { t } = useI18n();
  if (job.errors.length === 0) return <span className="muted">{t.imports.noProblems}</span>;
  return (
    <details className="import-errors">
      <summary>{t.imports.problemCount(job.errors.length)}</summary>
      <ul>
        {job.errors.map((error, index) => (
          <li key={`${index}:${error.item}`}>
            <code>{error.item}</code>: {error.message}
          </li>
        ))}
      </ul>
    </details>
  );
}
