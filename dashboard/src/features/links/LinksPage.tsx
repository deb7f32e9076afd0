import { useEffect, useState } from 'react';
import { Link as RouteLink, useLocation } from 'wouter';
import { api, call } from '../../api/client';
import { saveBlob } from '../../download';
import { describeError } from '../../api/describe';
import {
  LinkSearchByValues,
  LinkSortByValues,
  LinkStatusFilterValues,
  PerPageValues,
  SortDirectionValues,
} from '../../api/enums';
import type { Link } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { CopyButton } from '../../components/CopyButton';
import { EmptyList } from '../../components/EmptyList';
import { Field } from '../../components/Field';
import { ListControls } from '../../components/ListControls';
import { LoadError, Loading } from '../../components/LoadState';
import { useNotify } from '../../components/Notifications';
import { PageTitle } from '../../components/PageTitle';
import { Pagination } from '../../components/Pagination';
import { useListParams, oneOf, positiveInt } from '../../hooks/useListParams';
import { useLoad } from '../../hooks/useLoad';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan } from '../../session/SessionProvider';
import { SpaceName } from '../spaces/SpaceName';
import { QrDialog } from './QrDialog';
import { linkStatus } from './status';
import { useChoices } from './useChoices';

const DEFAULTS = {
  search: '',
  search_by: 'title',
  status: '0',
  space_id: '',
  domain_id: '',
  pixel_id: '',
  sort_by: 'id',
  sort: 'desc',
  per_page: '25',
  page: '1',
} as const;

/** The parameters that narrow the list (an empty answer then means "nothing matches", not "no links yet"). */
const FILTERS = ['search', 'status', 'space_id', 'domain_id', 'pixel_id'] as const;

type ListValues = Readonly<Record<keyof typeof DEFAULTS, string>>;

/** The list's query as the API takes it; values from a hand-edited address fall back to the defaults. */
function listQuery(values: ListValues) {
  const spaceId = values.space_id === '0' ? 0 : positiveInt(values.space_id);
  return {
    search: values.search.trim() === '' ? undefined : values.search.trim(),
    search_by: oneOf(values.search_by, LinkSearchByValues, 'title'),
    status: oneOf(values.status, LinkStatusFilterValues, 0),
    space_id: spaceId,
    domain_id: positiveInt(values.domain_id),
    pixel_id: positiveInt(values.pixel_id),
    sort_by: oneOf(values.sort_by, LinkSortByValues, 'id'),
    sort: oneOf(values.sort, SortDirectionValues, 'desc'),
    per_page: oneOf(values.per_page, PerPageValues, 25),
    page: positiveInt(values.page) ?? 1,
  };
}

export default function LinksPage() {
  const { t, number, date, dateTime } = useI18n();
  const can = useCan();
  const notify = useNotify();
  const [, navigate] = useLocation();
  const [values, update] = useListParams(DEFAULTS);
  const { spaces, domains, pixels } = useChoices();
  const [qrFor, setQrFor] = useState<Link | null>(null);
  const [deleting, setDeleting] = useState<Link | null>(null);
  const [exportError, setExportError] = useState<string | null>(null);
  const mayWrite = can('links.write');

  const query = listQuery(values);
  // The time of the answer dates each link's status: a page shows the links as they stood when it came.
  const links = useLoad(JSON.stringify(query), async (signal) => ({
    ...(await call(api.GET('/api/v1/links', { params: { query }, signal }))),
    at: Date.now(),
  }));
  // The form's code is fetched while the list is read, so that New link and Edit open without a wait.
  useEffect(() => {
    if (mayWrite) void import('./LinkEditPage');
  }, [mayWrite]);

  // A page past the last is empty however many links there are: it is read as a filter that matches nothing.
  const filtered = FILTERS.some((name) => values[name] !== DEFAULTS[name]) || values.page !== DEFAULTS.page;
  const clearFilters = () => update(Object.fromEntries(FILTERS.map((name) => [name, DEFAULTS[name]])));

  const exportCsv = async () => {
    setExportError(null);
    try {
      const { page: _page, per_page: _perPage, ...filters } = query;
      const blob = await call(
        api.GET('/api/v1/links/export', { params: { query: filters }, parseAs: 'blob' }),
      );
      saveBlob(blob, 'links.csv');
    } catch (error) {
      setExportError(describeError(t, error));
    }
  };

  const remove = async (link: Link) => {
    await call(api.DELETE('/api/v1/links/{id}', { params: { path: { id: link.id } } }));
    setDeleting(null);
    notify(t.links.deleted(link.short_url));
    links.reload();
  };

  // A filter of the dashboard's own labels fits the longest; one of the account's names (spaces...) may be cut.
  const filterSelect = (
    label: string,
    name: keyof typeof DEFAULTS,
    options: { value: string; label: string }[],
    fit = false,
  ) => (
    <Field label={label} className={fit ? 'filter filter-fit' : 'filter'}>
      {(control) => (
        <select
          {...control}
          value={values[name]}
          onChange={(event) => update({ [name]: event.target.value })}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
      )}
    </Field>
  );

  const page = links.data;
  return (
    <section className="page">
      <header className="page-header">
        <PageTitle text={t.nav.links} />
        <div className="page-actions">
          {mayWrite && (
            <button type="button" className="primary" onClick={() => navigate('/links/new')}>
              {t.links.newLink}
            </button>
          )}
          <button type="button" onClick={() => void exportCsv()}>
            {t.links.exportCsv}
          </button>
        </div>
      </header>
      {exportError !== null && (
        <p role="alert" className="error-text">
          {exportError}
        </p>
      )}

      <ListControls
        label={t.links.filters}
        values={values}
        update={update}
        searchBy={LinkSearchByValues.map((value) => ({ value, label: t.searchBy[value] }))}
        sortBy={LinkSortByValues.map((value) => ({ value, label: t.sortBy[value] }))}
      >
        {filterSelect(
          t.links.status,
          'status',
          LinkStatusFilterValues.map((value) => ({
            value: String(value),
            label: t.links.statusFilter[value],
          })),
          true,
        )}
        {spaces.length > 0 &&
          filterSelect(t.links.space, 'space_id', [
            { value: '', label: t.common.all },
            { value: '0', label: t.links.noSpace },
            ...spaces.map((space) => ({ value: String(space.id), label: space.name })),
          ])}
        {domains.length > 1 &&
          filterSelect(t.links.domain, 'domain_id', [
            { value: '', label: t.common.all },
            ...domains.map((domain) => ({ value: String(domain.id), label: domain.name })),
          ])}
        {pixels.length > 0 &&
          filterSelect(t.links.pixel, 'pixel_id', [
            { value: '', label: t.common.all },
            ...pixels.map((pixel) => ({ value: String(pixel.id), label: pixel.name })),
          ])}
      </ListControls>

      {links.error !== undefined && <LoadError error={links.error} onRetry={links.reload} />}
      {page === undefined && links.loading && <Loading />}
      {page !== undefined && (
        <div className="list-region" aria-busy={links.loading}>
          {page.data.length === 0 ? (
            <EmptyList
              filtered={filtered}
              empty={t.links.empty}
              create={
                mayWrite ? { label: t.links.newLink, onClick: () => navigate('/links/new') } : undefined
              }
              onClear={clearFilters}
            />
          ) : (
            <table className="table links-table">
              <caption className="sr-only">{t.nav.links}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.links.link}</th>
                  <th scope="col">{t.links.space}</th>
                  <th scope="col" className="number">
                    {t.links.clicks}
                  </th>
                  <th scope="col">{t.links.status}</th>
                  <th scope="col">{t.common.created}</th>
                  <th scope="col">
                    <span className="sr-only">{t.common.actions}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((link) => {
                  const status = linkStatus(link, page.at);
                  return (
                    <tr key={link.id}>
                      <th scope="row" className="link-cell" data-label={t.links.link}>
                        <span className="link-title">{link.title ?? link.alias}</span>
                        <a href={link.short_url} target="_blank" rel="noreferrer" className="short-url">
                          {link.short_url}
                        </a>
                        <span className="destination" title={link.url}>
                          {link.url}
                        </span>
                      </th>
                      <td data-label={t.links.space}>
                        <SpaceName space={link.space} />
                      </td>
                      <td className="number" data-label={t.links.clicks}>
                        {number(link.clicks)}
                        {link.clicks_limit ? ` / ${number(link.clicks_limit)}` : ''}
                      </td>
                      <td data-label={t.links.status}>
                        <span className={`badge badge-${status}`}>{t.links.statuses[status]}</span>
                      </td>
                      <td data-label={t.common.created} title={dateTime(link.created_at)}>
                        {date(link.created_at)}
                      </td>
                      <td className="row-actions">
                        <CopyButton text={link.short_url} what={link.short_url} />
                        <button type="button" onClick={() => setQrFor(link)}>
                          {t.links.qr} <span className="sr-only">{link.short_url}</span>
                        </button>
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
                            <button type="button" className="danger" onClick={() => setDeleting(link)}>
                              {t.common.delete} <span className="sr-only">{link.short_url}</span>
                            </button>
                          </>
                        )}
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          )}
          <Pagination
            meta={page.meta}
            label={t.links.pages}
            onPage={(next) => update({ page: String(next) })}
          />
        </div>
      )}

      {qrFor !== null && <QrDialog link={qrFor} onClose={() => setQrFor(null)} />}
      {deleting !== null && (
        <ConfirmDialog
          title={t.links.deleteTitle}
          confirmLabel={t.common.delete}
          onConfirm={() => remove(deleting)}
          onClose={() => setDeleting(null)}
        >
          <p>{t.links.deleteConfirm(deleting.short_url)}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}
