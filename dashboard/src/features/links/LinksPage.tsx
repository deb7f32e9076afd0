import { lazy, Suspense, useEffect, useState } from 'react';
import { useLocation } from 'wouter';
import { api, call, deleteById } from '../../api/client';
import { describeError } from '../../api/describe';
import { LinkSearchByValues, LinkSortByValues } from '../../api/enums';
import type { Link } from '../../api/types';
import { writeClipboard } from '../../components/CopyButton';
import { useCsvExport } from '../../components/CsvExport';
import { useNotify } from '../../components/Notifications';
import { deletion } from '../../components/RemovalDialog';
import { ResourceListPage } from '../../components/ResourceListPage';
import { ShortcutsDialog, type ShortcutHelp } from '../../components/ShortcutsDialog';
import { useResourceList } from '../../hooks/useResourceList';
import { useShortcuts } from '../../hooks/useShortcuts';
import { useI18n } from '../../i18n/I18nProvider';
import { linksOf, useLiveRefresh } from '../../session/LiveProvider';
import { useCan } from '../../session/SessionProvider';
import { SpaceName } from '../spaces/SpaceName';
import { TagList } from '../tags/TagChip';
import { tagColors } from '../tags/tagNames';
import { LinkBadges } from './LinkBadges';
import { LinkBulkBar, LinkBulkDialog, sendBulk, type BulkAction } from './LinkBulk';
import { LINK_DEFAULTS, LinkFilters, linkFilter, linkQuery } from './LinkFilters';
import { LinkRowActions } from './LinkRowActions';
import { LinkTagsDialog } from './LinkTagsDialog';
import {
  bulkTarget,
  current,
  emptySelection,
  isSelected,
  pageSelected,
  selectAllMatching,
  selectedCount,
  toggle,
  togglePage,
  type Selection,
} from './selection';
import { linkStatus } from './status';
import { useChoices } from './useChoices';

/** The QR designer, fetched when a code is first opened: most visits to the list open none. */
const QrDialog = lazy(() => import('./QrDialog').then((m) => ({ default: m.QrDialog })));

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

  // The selection belongs to the filters it was made under: other filters start from none.
  const filter = linkFilter(list.values);
  const filterKey = JSON.stringify(filter);
  const [selectionState, setSelection] = useState<Selection>(() => emptySelection(filterKey));
  const selection = current(selectionState, filterKey);
  const rows = list.page.data?.data ?? [];
  const pageIds = rows.map((link) => link.id);
  const total = list.page.data?.meta.total ?? 0;
  const count = selectedCount(selection, total);
  // Another client's change, or a visit to a link shown (to any link when ordered by clicks), reads the page again.
  useLiveRefresh(
    (event) =>
      event.type !== 'link.clicked' ||
      list.values.sort_by === 'clicks' ||
      linksOf(event).some((id) => pageIds.includes(id)),
    list.page.reload,
  );
  const [bulk, setBulk] = useState<BulkAction | null>(null);
  const [activeId, setActiveId] = useState<number | null>(null);
  const [help, setHelp] = useState(false);

  const runBulk = async (changes: Parameters<typeof sendBulk>[2]) => {
    if (bulk === null) return;
    const changed = await sendBulk(bulkTarget(selection, filter), bulk, changes);
    setBulk(null);
    setSelection(emptySelection(filterKey));
    list.page.reload();
    if (bulk === 'tagsAdd') choices.reloadTags();
    notify(
      bulk === 'delete' ? t.bulk.deleted(changed, number(changed)) : t.bulk.updated(changed, number(changed)),
    );
  };

  /** The link a row shortcut acts on: the row holding the focus, or else the one the keyboard marked. */
  type Row = (typeof rows)[number];
  const target = (): Row | undefined => {
    const row = document.activeElement?.closest<HTMLElement>('tr[data-row-id]');
    const id = row ? Number(row.dataset.rowId) : activeId;
    return rows.find((link) => link.id === id);
  };
  const move = (step: number) => {
    if (rows.length === 0) return;
    const at = rows.findIndex((link) => link.id === target()?.id);
    const next =
      rows[at === -1 ? (step > 0 ? 0 : rows.length - 1) : Math.min(Math.max(at + step, 0), rows.length - 1)];
    if (next === undefined) return;
    setActiveId(next.id);
    document.querySelector<HTMLElement>(`tr[data-row-id="${next.id}"]`)?.focus();
  };
  // The arrows move between rows from a row alone: elsewhere they scroll the page, as the reader expects.
  const fromRow = (step: number) => () => {
    if (document.activeElement?.closest('tr[data-row-id]') == null) return false;
    move(step);
  };
  const onTarget = (action: (link: Row) => void) => () => {
    const link = target();
    if (link !== undefined) action(link);
  };
  const copy = async (link: Link) => {
    try {
      await writeClipboard(link.short_url);
      notify(t.common.copiedWhat(link.short_url));
    } catch {
      notify(t.common.copyFailed);
    }
  };
  const writes = {
    n: () => navigate('/links/new'),
    e: onTarget((link) => navigate(`/links/${link.id}/edit`)),
    a: onTarget((link) => void archive(link)),
    d: onTarget((link) => list.remove(link)),
    Delete: onTarget((link) => list.remove(link)),
  };
  useShortcuts({
    ...(mayWrite ? writes : {}),
    '/': () => document.querySelector<HTMLElement>('[role="search"] input[type="search"]')?.focus(),
    j: () => move(1),
    ArrowDown: fromRow(1),
    k: () => move(-1),
    ArrowUp: fromRow(-1),
    c: onTarget((link) => void copy(link)),
    q: onTarget((link) => setQrFor(link)),
    x: onTarget((link) => setSelection(toggle(selection, link.id, pageIds))),
    '?': () => setHelp(true),
  });
  const s = t.shortcuts;
  const shortcutHelp: ShortcutHelp[] = [
    ...(mayWrite ? [{ keys: ['n'], label: s.newLink }] : []),
    { keys: ['/'], label: s.search },
    { keys: ['j', '↓'], label: s.next },
    { keys: ['k', '↑'], label: s.previous },
    { keys: ['c'], label: s.copy },
    ...(mayWrite ? [{ keys: ['e'], label: s.edit }] : []),
    { keys: ['q'], label: s.qr },
    ...(mayWrite
      ? [
          { keys: ['a'], label: s.archive },
          { keys: ['d', 'Delete'], label: s.delete },
        ]
      : []),
    { keys: ['x'], label: s.select },
    { keys: ['?'], label: s.help },
  ];

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
      beforeList={
        <>
          {/* The table's header, where this box stands on wide screens, is hidden when rows become cards. */}
          {pageIds.length > 0 && (
            <label className="select-page">
              <input
                type="checkbox"
                checked={pageSelected(selection, pageIds)}
                onChange={() => setSelection(togglePage(selection, pageIds))}
              />
              {t.bulk.selectPage}
            </label>
          )}
          {/* Always in the page, so that a screen reader hears the count change. */}
          <p role="status" className="sr-only">
            {count > 0 ? t.bulk.selected(number(count)) : ''}
          </p>
          {count > 0 && (
            <>
              <LinkBulkBar
                count={count}
                all={selection.all}
                mayWrite={mayWrite}
                archived={list.values.archived === '1'}
                spaces={choices.spaces}
                onAction={setBulk}
                onExport={csv.run}
                onClear={() => setSelection(emptySelection(filterKey))}
              />
              {selection.all ? (
                <p className="bulk-offer">{t.bulk.allSelected(number(total))}</p>
              ) : (
                pageSelected(selection, pageIds) &&
                total > pageIds.length && (
                  <p className="bulk-offer">
                    {t.bulk.pageSelected(pageIds.length, number(pageIds.length))}{' '}
                    <button
                      type="button"
                      className="link-button"
                      onClick={() => setSelection(selectAllMatching(selection))}
                    >
                      {t.bulk.selectAll(number(total))}
                    </button>
                  </p>
                )
              )}
            </>
          )}
        </>
      }
      table={{
        lead: {
          header: (
            <input
              type="checkbox"
              aria-label={t.bulk.selectPage}
              checked={pageSelected(selection, pageIds)}
              onChange={() => setSelection(togglePage(selection, pageIds))}
            />
          ),
          cell: (link) => (
            <input
              type="checkbox"
              aria-label={t.bulk.select(link.short_url)}
              checked={isSelected(selection, link.id)}
              onChange={() => setSelection(toggle(selection, link.id, pageIds))}
            />
          ),
        },
        rowProps: (link) => ({
          'data-row-id': link.id,
          tabIndex: -1,
          className: link.id === activeId ? 'row-active' : undefined,
          onFocus: () => setActiveId(link.id),
        }),
      }}
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
      {bulk !== null && (
        <LinkBulkDialog
          action={bulk}
          count={count}
          spaces={choices.spaces}
          colors={colors}
          onConfirm={runBulk}
          onClose={() => setBulk(null)}
        />
      )}
      {help && <ShortcutsDialog shortcuts={shortcutHelp} onClose={() => setHelp(false)} />}
      {qrFor !== null && (
        <Suspense fallback={null}>
          <QrDialog link={qrFor} onClose={() => setQrFor(null)} />
        </Suspense>
      )}
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
