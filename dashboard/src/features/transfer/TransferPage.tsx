import { useState, type FormEvent } from 'react';
import { api, call } from '../../api/client';
import { saveBlob } from '../../download';
import { describeError } from '../../api/describe';
import { isApiError, type FieldErrors } from '../../api/errors';
import type { Link } from '../../api/types';
import { DataTable } from '../../components/DataTable';
import { Field } from '../../components/Field';
import { PageTitle } from '../../components/PageTitle';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan } from '../../session/SessionProvider';

/** The API refuses a file over 2 MB; saying so before sending spares the upload. */
const MAX_BYTES = 2 * 1024 * 1024;

type ImportOutcome =
  | { kind: 'created'; links: Link[] }
  | { kind: 'refused'; message: string; rows: { row: string; field: string; messages: string[] }[] };

/** A refusal's fields by row: the API names them `line.3.url`, by the line of the file, as an editor shows it. */
function rowsOf(fields: FieldErrors) {
  return Object.entries(fields).map(([name, messages]) => {
    const match = /^line\.(\d+)\.(.+)$/.exec(name);
    return match
      ? { row: match[1] ?? '', field: match[2] ?? name, messages }
      : { row: '', field: name, messages };
  });
}

export default function TransferPage() {
  const { t } = useI18n();
  const can = useCan();
  const [file, setFile] = useState<File | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<ImportOutcome | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);

  const exportAll = async () => {
    setExportError(null);
    try {
      const blob = await call(api.GET('/api/v1/links/export', { parseAs: 'blob' }));
      saveBlob(blob, 'links.csv');
    } catch (error) {
      setExportError(describeError(t, error));
    }
  };

  const importFile = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (file === null) return;
    setOutcome(null);
    if (file.size > MAX_BYTES) {
      setOutcome({ kind: 'refused', message: t.transfer.tooLarge, rows: [] });
      return;
    }
    setBusy(true);
    try {
      const csv = await file.text();
      const created = await call(
        api.POST('/api/v1/links/import', {
          body: csv,
          bodySerializer: (body: string) => body,
          headers: { 'Content-Type': 'text/csv; charset=utf-8' },
        }),
      );
      setOutcome({ kind: 'created', links: created.data });
    } catch (error) {
      setOutcome({
        kind: 'refused',
        message: describeError(t, error),
        rows: isApiError(error) ? rowsOf(error.fields) : [],
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="page">
      <header className="page-header">
        <PageTitle text={t.nav.transfer} />
      </header>

      <section className="card" aria-labelledby="export-heading">
        <h2 id="export-heading">{t.transfer.exportTitle}</h2>
        <p>{t.transfer.exportIntro}</p>
        <button type="button" onClick={() => void exportAll()}>
          {t.transfer.exportButton}
        </button>
        {exportError !== null && (
          <p role="alert" className="error-text">
            {exportError}
          </p>
        )}
      </section>

      {can('links.write') && (
        <section className="card" aria-labelledby="import-heading">
          <h2 id="import-heading">{t.transfer.importTitle}</h2>
          <p>{t.transfer.importIntro}</p>
          <form className="form" onSubmit={(event) => void importFile(event)} aria-busy={busy}>
            <Field label={t.transfer.file}>
              {(control) => (
                <input
                  {...control}
                  type="file"
                  accept=".csv,text/csv"
                  required
                  onChange={(event) => {
                    setFile(event.target.files?.[0] ?? null);
                    setOutcome(null);
                  }}
                />
              )}
            </Field>
            <div className="form-actions">
              <button type="submit" className="primary" disabled={busy || file === null}>
                {busy ? t.transfer.importing : t.transfer.importButton}
              </button>
            </div>
          </form>
          {outcome?.kind === 'created' && (
            <div role="status" className="result">
              <p>{t.transfer.created(outcome.links.length)}</p>
              {outcome.links.length > 0 && (
                <DataTable
                  caption={t.transfer.createdCaption}
                  columns={[
                    { label: t.transfer.shortUrl, cell: (link) => link.short_url },
                    { label: t.transfer.destination, cell: (link) => link.url, className: 'url-cell' },
                  ]}
                  rows={outcome.links}
                />
              )}
            </div>
          )}
          {outcome?.kind === 'refused' && (
            <div role="alert" className="form-alert">
              <p>{outcome.message}</p>
              {outcome.rows.length > 0 && (
                <>
                  <p>{t.transfer.nothingCreated}</p>
                  <ul>
                    {outcome.rows.map(({ row, field, messages }) => (
                      <li key={`${row}:${field}`}>
                        {row !== '' && <strong>{t.transfer.line(row)}: </strong>}
                        <code>{field}</code> — {messages.join(' ')}
                      </li>
                    ))}
                  </ul>
                </>
              )}
            </div>
          )}
        </section>
      )}
    </section>
  );
}
