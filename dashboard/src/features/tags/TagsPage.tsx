import { Link as RouteLink } from 'wouter';
import { api, call } from '../../api/client';
import { TagSearchByValues, TagSortByValues } from '../../api/enums';
import { ResourceListPage } from '../../components/ResourceListPage';
import { LIST_DEFAULTS, listQuery } from '../../hooks/listQuery';
import { useResourceList } from '../../hooks/useResourceList';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan } from '../../session/SessionProvider';
import { TagChip } from './TagChip';
import { TagDialog } from './TagDialog';

const DEFAULTS = { ...LIST_DEFAULTS, search_by: 'name' };

/** The workspace's tags: links' metadata, read with `links.read` and changed with `links.write`. */
export default function TagsPage() {
  const { t, number, dateTime } = useI18n();
  const list = useResourceList(
    DEFAULTS,
    (values) => listQuery(values, TagSearchByValues, TagSortByValues),
    (query, signal) => call(api.GET('/api/v1/tags', { params: { query }, signal })),
  );
  return (
    <ResourceListPage
      texts={{ ...t.tags, title: t.nav.tags }}
      list={list}
      mayWrite={useCan()('links.write')}
      sortBy={TagSortByValues}
      columns={[
        { label: t.common.name, cell: (tag) => <TagChip name={tag.name} color={tag.color} /> },
        {
          label: t.tags.links,
          className: 'number',
          cell: (tag) => (
            <RouteLink href={`/links?${new URLSearchParams({ tag: tag.name }).toString()}`}>
              {number(tag.links_count)} <span className="sr-only">{t.tags.linksWith(tag.name)}</span>
            </RouteLink>
          ),
        },
        { label: t.common.created, cell: (tag) => dateTime(tag.created_at) },
      ]}
      form={(tag, onSaved, onClose) => <TagDialog tag={tag} onClose={onClose} onSaved={onSaved} />}
      removal={{
        label: t.common.delete,
        title: t.tags.deleteTitle,
        confirm: (tag) => <p>{t.tags.deleteConfirm(tag.name)}</p>,
        done: t.tags.deleted,
        run: (tag) => call(api.DELETE('/api/v1/tags/{id}', { params: { path: { id: tag.id } } })),
      }}
    />
  );
}
