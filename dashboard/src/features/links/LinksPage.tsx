import { useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { api, call, deleteById } from '../../api/client';
import { describeError } from '../../api/describe';
import { LinkSearchByValues, LinkSortByValues } from '../../api/enums';
import type { Link } from '../../api/types';
import { useCsvExport } from '../../components/CsvExport';
import { useNotify } from '../../components/Notifications';
import { deletion } from '../../components/RemovalDialog';
import { ResourceListPage } from '../../components/ResourceListPage';
import { useResourceList } from '../../hooks/useResourceList';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan } from '../../session/SessionProvider';
import { SpaceName } from '../spaces/SpaceName';
import { TagList } from '../tags/TagChip';
import { tagColors } from '../tags/tagNames';
import { LinkBadges } from './LinkBadges';
import { LINK_DEFAULTS, LinkFilters, linkQuery } from './LinkFilters';
import { LinkRowActions } from './LinkRowActions';
import { LinkTagsDialog } from './LinkTagsDialog';
import { QrDialog } from './QrDialog';
import { linkStatus } from './status';
import { useChoices } from './useChoices';

export default function LinksPage() {
  const { t, number, date, dateTime } = useI18n();
  const can = useCan();
  const [, navigate] = useLocation();
  const notify = useNotify();
  const [qrFor, setQrFor] = useState<Link | null>(null);
  const [tagsFor, setTagsFor] = useState<Link | null>(null);
  const mayWrite = can('links.write');
  const choices = useChoices();
  const colors = tagColors(choices.tags);
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

  // Archiving takes the link out of the list shown (and back): the keyboard goes on from the list's region.
  const archive = async (link: Link) => {
    const archived = link.archived === 1 ? 0 : 1;
    try {
      await call(api.PATCH('/api/v1/links/{id}', { params: { path: { id: link.id } }, body: { archived } }));
    } catch (error) {
      notify(describeError(t, error));
      return;
    }
    list.page.reload();
    document.getElementById('main')?.focus();
    notify(archived === 1 ? t.links.archivedDone(link.short_url) : t.links.unarchivedDone(link.short_url));
  };

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
      filters={<LinkFilters values={list.values} update={list.update} choices={choices} colors={colors} />}
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
          label: t.links.tags,
          cell: (link) => (
            <>
              <TagList names={link.tags} colors={colors} />
              {mayWrite && (
                <button type="button" className="link-button tag-edit" onClick={() => setTagsFor(link)}>
                  {link.tags.length === 0 ? t.links.addTags : t.links.editTags}{' '}
                  <span className="sr-only">{link.short_url}</span>
                </button>
              )}
            </>
          ),
        },
        {
          label: t.links.clicks,
          className: 'number',
          cell: (link) =>
            `${number(link.clicks)}${link.clicks_limit ? ` / ${number(link.clicks_limit)}` : ''}`,
        },
        { label: t.links.status, cell: (link) => <LinkBadges link={link} /> },
        {
          label: t.common.created,
          title: (link) => dateTime(link.created_at),
          cell: (link) => date(link.created_at),
        },
      ]}
      actionsForReaders
      actions={(link, open) => (
        <LinkRowActions
          link={link}
          mayWrite={mayWrite}
          onQr={() => setQrFor(link)}
          onArchive={() => void archive(link)}
          onDelete={open.remove}
        />
      )}
      removal={deletion(t, t.links, deleteById('/api/v1/links/{id}'))}
    >
      {qrFor !== null && <QrDialog link={qrFor} onClose={() => setQrFor(null)} />}
      {tagsFor !== null && (
        <LinkTagsDialog
          link={tagsFor}
          colors={colors}
          onClose={() => setTagsFor(null)}
          onSaved={(saved) => {
            setTagsFor(null);
            list.page.reload();
            // A name new to the workspace made a tag: its colour is to be read.
            choices.reloadTags();
            notify(t.links.tagsSaved(saved.short_url));
          }}
        />
      )}
    </ResourceListPage>
  );
}
