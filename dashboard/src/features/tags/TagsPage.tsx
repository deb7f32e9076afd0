import { api, call, deleteById } from '../../api/client';
import { TagSearchByValues, TagSortByValues } from '../../api/enums';
import { deletion } from '../../components/RemovalDialog';
import { ResourceListPage } from '../../components/ResourceListPage';
import { useNamedList } from '../../hooks/useResourceList';
import { useI18n } from '../../i18n/I18nProvider';
import { changesLinks, useLiveRefresh } from '../../session/LiveProvider';
import { useCan } from '../../session/SessionProvider';
import { LinksCount } from '../links/LinksCount';
import { TagChip } from './TagChip';
import { TagDialog } from './TagDialog';

/** The workspace's tags: links' metadata, read with `links.read` and changed with `links.write`. */
export default function TagsPage() {
  const { t, dateTime } = useI18n();
  const list = useNamedList(TagSearchByValues, TagSortByValues, (query, signal) =>
    call(api.GET('/api/v1/tags', { params: { query }, signal })),
  );
  // Each row counts its links: a link made, moved or deleted elsewhere changes them.
  useLiveRefresh(changesLinks, list.page.reload);
  return (
    <ResourceListPage
      texts={{ ...t.tags, title: t.nav.tags }}
      list={list}
      mayWrite={useCan()('links.write')}
      columns={[
        { label: t.common.name, cell: (tag) => <TagChip name={tag.name} color={tag.color} /> },
        {
          label: t.tags.links,
          className: 'number',
          cell: (tag) => (
            <LinksCount
              count={tag.links_count}
              filter={{ tag: tag.name }}
              label={t.tags.linksWith(tag.name)}
            />
          ),
        },
        { label: t.common.created, cell: (tag) => dateTime(tag.created_at) },
      ]}
      form={(tag, onSaved, onClose) => <TagDialog tag={tag} onClose={onClose} onSaved={onSaved} />}
      removal={deletion(t, t.tags, deleteById('/api/v1/tags/{id}'))}
    />
  );
}
