import { api, call, deleteById } from '../../api/client';
import { SpaceSearchByValues, SpaceSortByValues } from '../../api/enums';
import { deletion } from '../../components/RemovalDialog';
import { ResourceListPage } from '../../components/ResourceListPage';
import { useNamedList } from '../../hooks/useResourceList';
import { useI18n } from '../../i18n/I18nProvider';
import { changesLinks, useLiveRefresh } from '../../session/LiveProvider';
import { useCan } from '../../session/SessionProvider';
import { LinksCount } from '../links/LinksCount';
import { SpaceDialog } from './SpaceDialog';
import { SpaceName } from './SpaceName';

export default function SpacesPage() {
  const { t, dateTime } = useI18n();
  const list = useNamedList(SpaceSearchByValues, SpaceSortByValues, (query, signal) =>
    call(api.GET('/api/v1/spaces', { params: { query }, signal })),
  );
  // Each row counts its links: a link made, moved or deleted elsewhere changes them.
  useLiveRefresh(changesLinks, list.page.reload);
  return (
    <ResourceListPage
      texts={{ ...t.spaces, title: t.nav.spaces }}
      list={list}
      mayWrite={useCan()('spaces.write')}
      columns={[
        { label: t.common.name, cell: (space) => <SpaceName space={space} /> },
        {
          label: t.spaces.links,
          className: 'number',
          cell: (space) => (
            <LinksCount
              count={space.links_count}
              filter={{ space_id: String(space.id) }}
              label={t.spaces.linksIn(space.name)}
            />
          ),
        },
        { label: t.common.created, cell: (space) => dateTime(space.created_at) },
      ]}
      form={(space, onSaved, onClose) => <SpaceDialog space={space} onClose={onClose} onSaved={onSaved} />}
      removal={deletion(t, t.spaces, deleteById('/api/v1/spaces/{id}'))}
    />
  );
}
