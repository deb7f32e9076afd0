import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { api, call } from '../../api/client';
import { LinkSearchByValues, LinkSortByValues } from '../../api/enums';
import type { Link } from '../../api/types';
import { useCsvExport } from '../../components/CsvExport';
import { ResourceListPage } from '../../components/ResourceListPage';
import { useResourceList } from '../../hooks/useResourceList';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan } from '../../session/SessionProvider';
import { SpaceName } from '../spaces/SpaceName';
import { LINK_DEFAULTS, LinkFilters, linkQuery } from './LinkFilters';
import { LinkRowActions } from './LinkRowActions';
import { QrDialog } from './QrDialog';
import { linkStatus } from './status';

export default function LinksPage() {
  const { t, number, date, dateTime } = useI18n();
  const can = useCan();
  const [, navigate] = useLocation();
  const [qrFor, setQrFor] = useState<Link | null>(null);
  const mayWrite = can('links.write');
  const list = useResourceList(LINK_DEFAULTS, linkQuery, async (query, signal) => {
    const answer = await call(api.GET('/api/v1/links', { params: { query }, signal }));
    // The time of the answer dates each link's status: a page shows the links as they stood when it came.
    const at = Date.now();
    return { ...answer, data: answer.data.map((link) => ({ ...link, status: linkStatus(link, at) })) };
  });
  // The form's code is fetched while the list is read, so that New link and Edit open without a wait.
  useEffect(() => {
    if (mayWrite) void import('./LinkEditPage');
  }, [mayWrite]);

  const csv = useCsvExport(t.links.exportCsv, 'links.csv', () => {
    const { page: _page, per_page: _perPage, ...filters } = linkQuery(list.values);
    return call(api.GET('/api/v1/links/export', { params: { query: filters }, parseAs: 'blob' }));
  });

  return (
    <ResourceListPage
      texts={{ ...t.links, title: t.nav.links, new: t.links.newLink }}
      list={list}
      mayWrite={mayWrite}
      create={() => navigate('/links/new')}
      headerActions={csv.button}
      headerNotice={csv.notice}
      searchBy={LinkSearchByValues}
      sortBy={LinkSortByValues}
      filters={<LinkFilters values={list.values} update={list.update} />}
      tableClassName="links-table"
      rowName={(link) => link.short_url}
      columns={[
        {
          label: t.links.link,
          className: 'link-cell',
          cell: (link) => (
            <>
              <span className="link-title">{link.title ?? link.alias}</span>
              <a href={link.short_url} target="_blank" rel="noreferrer" className="short-url">
                {link.short_url}
              </a>
              <span className="destination" title={link.url}>
                {link.url}
              </span>
            </>
          ),
        },
        { label: t.links.space, cell: (link) => <SpaceName space={link.space} /> },
        {
          label: t.links.clicks,
          className: 'number',
          cell: (link) =>
            `${number(link.clicks)}${link.clicks_limit ? ` / ${number(link.clicks_limit)}` : ''}`,
        },
        {
          label: t.links.status,
          cell: (link) => (
            <span className={`badge badge-${link.status}`}>{t.links.statuses[link.status]}</span>
          ),
        },
        {
          label: t.common.created,
          title: (link) => dateTime(link.created_at),
          cell: (link) => date(link.created_at),
        },
      ]}
      actionsForReaders
      actions={(link, open) => (
        <LinkRowActions link={link} mayWrite={mayWrite} onQr={() => setQrFor(link)} onDelete={open.remove} />
      )}
      removal={{
        label: t.common.delete,
        title: t.links.deleteTitle,
        confirm: (link) => <p>{t.links.deleteConfirm(link.short_url)}</p>,
        done: t.links.deleted,
        run: (link) => call(api.DELETE('/api/v1/links/{id}', { params: { path: { id: link.id } } })),
      }}
    >
      {qrFor !== null && <QrDialog link={qrFor} onClose={() => setQrFor(null)} />}
    </ResourceListPage>
  );
}
