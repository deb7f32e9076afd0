import { api, call, deleteById } from '../../api/client';
import { ResourceListPage } from '../../components/ResourceListPage';
import { RowButton } from '../../components/RowButton';
import { LIST_DEFAULTS, pageQuery } from '../../hooks/listQuery';
import { usePolling } from '../../hooks/usePolling';
import { useResourceList } from '../../hooks/useResourceList';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan } from '../../session/SessionProvider';
import { ImportCounts, ImportErrors, ImportProgressBar, ImportStatusBadge } from './ImportCells';
import { ImportDialog } from './ImportDialog';
import { importName, isActive } from './sources';

/** How often the list is read again while an import on it is queued or running. */
export const POLL_MS = 1500;

/** /imports: imports from other shorteners, newest first, followed live while one goes on; a new one; a cancel. */
export default function ImportsPage() {
  const { t, dateTime } = useI18n();
  const mayWrite = useCan()('links.write');
  const list = useResourceList(LIST_DEFAULTS, pageQuery, (query, signal) =>
    call(api.GET('/api/v1/imports', { params: { query }, signal })),
  );
  const { page } = list;
  const going = page.data?.data.some(isActive) === true;
  usePolling(going && !page.loading && page.error === undefined, page.reload, POLL_MS);

  return (
    <ResourceListPage
      texts={{ ...t.imports, title: t.nav.imports }}
      list={list}
      mayWrite={mayWrite}
      searchable={false}
      rowName={importName}
      tableClassName="imports-table"
      columns={[
        { label: t.imports.import, cell: importName, className: 'nowrap' },
        { label: t.imports.status, cell: (job) => <ImportStatusBadge job={job} /> },
        { label: t.imports.progress, cell: (job) => <ImportProgressBar job={job} /> },
        { label: t.imports.results, cell: (job) => <ImportCounts job={job} /> },
        { label: t.common.created, cell: (job) => dateTime(job.created_at) },
        { label: t.imports.finished, cell: (job) => (job.finished_at ? dateTime(job.finished_at) : '—') },
        { label: t.imports.problems, cell: (job) => <ImportErrors job={job} /> },
      ]}
      actions={(job, open) =>
        isActive(job) && (
          <RowButton name={importName(job)} danger onClick={open.remove}>
            {t.imports.cancel}
          </RowButton>
        )
      }
      form={(_job, onSaved, onClose) => <ImportDialog onClose={onClose} onSaved={onSaved} />}
      removal={{
        label: t.imports.cancel,
        title: t.imports.cancelTitle,
        confirm: t.imports.cancelConfirm,
        done: t.imports.cancelled,
        run: deleteById('/api/v1/imports/{id}'),
      }}
    />
  );
}
