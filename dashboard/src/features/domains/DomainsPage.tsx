import { useState } from 'react';
import { api, call } from '../../api/client';
import { DomainSearchByValues, DomainSortByValues } from '../../api/enums';
import type { Domain } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyList } from '../../components/EmptyList';
import { Field } from '../../components/Field';
import { UrlInput, withScheme } from '../../components/UrlInput';
import { FormDialog } from '../../components/FormDialog';
import { ListControls } from '../../components/ListControls';
import { LoadError, Loading } from '../../components/LoadState';
import { useNotify } from '../../components/Notifications';
import { PageTitle } from '../../components/PageTitle';
import { Pagination } from '../../components/Pagination';
import { LIST_DEFAULTS, listQuery } from '../../hooks/listQuery';
import { useListParams } from '../../hooks/useListParams';
import { useLoad } from '../../hooks/useLoad';
import { useSubmit } from '../../hooks/useSubmit';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan } from '../../session/SessionProvider';
import { RowButton } from '../../components/RowButton';

const DEFAULTS = { ...LIST_DEFAULTS, search_by: 'name' };

export default function DomainsPage() {
  const { t, dateTime } = useI18n();
  const can = useCan();
  const notify = useNotify();
  const [values, update] = useListParams(DEFAULTS);
  const [editing, setEditing] = useState<Domain | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Domain | null>(null);
  const mayWrite = can('domains.write');

  const query = listQuery(values, DomainSearchByValues, DomainSortByValues);
  const domains = useLoad(JSON.stringify(query), (signal) =>
    call(api.GET('/api/v1/domains', { params: { query }, signal })),
  );
  const serviceDomain = useServiceDomain(can('account.read'));

  const remove = async (domain: Domain) => {
    await call(api.DELETE('/api/v1/domains/{id}', { params: { path: { id: domain.id } } }));
    setDeleting(null);
    notify(t.domains.deleted(domain.name));
    domains.reload();
  };

  const page = domains.data;
  return (
    <section className="page">
      <header className="page-header">
        <PageTitle text={t.nav.domains} />
        {mayWrite && (
          <div className="page-actions">
            <button type="button" className="primary" onClick={() => setEditing('new')}>
              {t.domains.new}
            </button>
          </div>
        )}
      </header>
      <p className="hint">{t.domains.intro}</p>
      <ListControls
        label={t.domains.filters}
        values={values}
        update={update}
        sortBy={DomainSortByValues.map((value) => ({ value, label: t.sortBy[value] }))}
      />
      {domains.error !== undefined && <LoadError error={domains.error} onRetry={domains.reload} />}
      {page === undefined && domains.loading && <Loading />}
      {page !== undefined && (
        <div className="list-region" aria-busy={domains.loading}>
          {page.data.length === 0 ? (
            <EmptyList
              filtered={values.search !== DEFAULTS.search || values.page !== DEFAULTS.page}
              empty={t.domains.empty}
              create={mayWrite ? { label: t.domains.new, onClick: () => setEditing('new') } : undefined}
              onClear={() => update({ search: DEFAULTS.search })}
            />
          ) : (
            <table className="table">
              <caption className="sr-only">{t.nav.domains}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.common.name}</th>
                  <th scope="col">{t.domains.indexPage}</th>
                  <th scope="col">{t.domains.notFoundPage}</th>
                  <th scope="col">{t.common.created}</th>
                  {mayWrite && (
                    <th scope="col">
                      <span className="sr-only">{t.common.actions}</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {page.data.map((domain) => (
                  <tr key={domain.id}>
                    <th scope="row" data-label={t.common.name}>
                      <a href={domain.url} target="_blank" rel="noreferrer">
                        {domain.name}
                      </a>
                    </th>
                    <td data-label={t.domains.indexPage} className="url-cell">
                      {domain.index_page ?? '—'}
                    </td>
                    <td data-label={t.domains.notFoundPage} className="url-cell">
                      {domain.not_found_page ?? '—'}
                    </td>
                    <td data-label={t.common.created}>{dateTime(domain.created_at)}</td>
                    {mayWrite && (
                      <td className="row-actions">
                        {serviceDomain(domain) ? (
                          <span className="hint">{t.domains.shared}</span>
                        ) : (
                          <>
                            <RowButton name={domain.name} onClick={() => setEditing(domain)}>
                              {t.common.edit}
                            </RowButton>
                            <RowButton name={domain.name} danger onClick={() => setDeleting(domain)}>
                              {t.common.delete}
                            </RowButton>
                          </>
                        )}
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Pagination
            meta={page.meta}
            label={t.domains.pages}
            onPage={(next) => update({ page: String(next) })}
          />
        </div>
      )}
      {editing !== null && (
        <DomainDialog
          domain={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(domain) => {
            setEditing(null);
            notify(t.domains.saved(domain.name));
            domains.reload();
          }}
        />
      )}
      {deleting !== null && (
        <ConfirmDialog
          title={t.domains.deleteTitle}
          confirmLabel={t.common.delete}
          onConfirm={() => remove(deleting)}
          onClose={() => setDeleting(null)}
        >
          <p>{t.domains.deleteConfirm(deleting.name)}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

/**
 * Whether a domain is the service's own, which every account shares and none may change. The API does not mark
 * it in a domain (its fields are phpShort's), but the account's default domain is that one; a key that cannot
 * read the account goes by the host the dashboard is served from, which is the service's own.
 */
function useServiceDomain(mayReadAccount: boolean): (domain: Domain) => boolean {
  const account = useLoad(mayReadAccount ? 'account' : null, (signal) =>
    call(api.GET('/api/v1/account', { signal })),
  );
  const defaultId = account.data?.data.default_domain;
  return (domain) =>
    defaultId === undefined ? domain.name === window.location.host : domain.id === defaultId;
}

const DOMAIN_FIELDS = ['name', 'index_page', 'not_found_page'] as const;

interface DomainDialogProps {
  domain: Domain | null;
  onClose: () => void;
  onSaved: (domain: Domain) => void;
}

/** A new domain takes a host name; afterwards only its two pages can change. */
function DomainDialog({ domain, onClose, onSaved }: DomainDialogProps) {
  const { t } = useI18n();
  const submission = useSubmit();
  const [name, setName] = useState(domain?.name ?? '');
  const [indexPage, setIndexPage] = useState(domain?.index_page ?? '');
  const [notFoundPage, setNotFoundPage] = useState(domain?.not_found_page ?? '');

  const save = async () => {
    const pages = {
      index_page: indexPage.trim() === '' ? null : withScheme(indexPage),
      not_found_page: notFoundPage.trim() === '' ? null : withScheme(notFoundPage),
    };
    const saved = domain
      ? await call(api.PUT('/api/v1/domains/{id}', { params: { path: { id: domain.id } }, body: pages }))
      : await call(api.POST('/api/v1/domains', { body: { name: name.trim(), ...pages } }));
    onSaved(saved.data);
  };

  return (
    <FormDialog
      title={domain ? t.domains.editTitle(domain.name) : t.domains.new}
      submission={submission}
      fields={DOMAIN_FIELDS}
      onSave={save}
      onClose={onClose}
    >
      <Field
        label={t.domains.hostname}
        {...submission.field('name')}
        hint={domain ? t.domains.hostnameFixed : t.domains.hostnameHint}
      >
        {(control) => (
          <input
            {...control}
            required
            readOnly={domain !== null}
            autoCapitalize="off"
            spellCheck={false}
            placeholder="go.example.com"
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        )}
      </Field>
      <Field label={t.domains.indexPage} {...submission.field('index_page')} hint={t.domains.indexPageHint}>
        {(control) => <UrlInput {...control} maxLength={2048} value={indexPage} onChange={setIndexPage} />}
      </Field>
      <Field
        label={t.domains.notFoundPage}
        {...submission.field('not_found_page')}
        hint={t.domains.notFoundPageHint}
      >
        {(control) => (
          <UrlInput {...control} maxLength={2048} value={notFoundPage} onChange={setNotFoundPage} />
        )}
      </Field>
    </FormDialog>
  );
}
