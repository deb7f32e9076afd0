import { Link as RouteLink } from 'wouter';
import { api, call } from '../../api/client';
import { SpaceSearchByValues, SpaceSortByValues } from '../../api/enums';
import { ResourceListPage } from '../../components/ResourceListPage';
import { LIST_DEFAULTS, listQuery } from '../../hooks/listQuery';
import { useResourceList } from '../../hooks/useResourceList';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan } from '../../session/SessionProvider';
import { SpaceDialog } from './SpaceDialog';
import { SpaceName } from './SpaceName';

const DEFAULTS = { ...LIST_DEFAULTS, search_by: 'name' };

export default function SpacesPage() {
  const { t, number, dateTime } = useI18n();
  const list = useResourceList(
    DEFAULTS,
    (values) => listQuery(values, SpaceSearchByValues, SpaceSortByValues),
    (query, signal) => call(api.GET('/api/v1/spaces', { params: { query }, signal })),
  );
  return (
    <ResourceListPage
      texts={{ ...t.spaces, title: t.nav.spaces }}
      list={list}
      mayWrite={useCan()('spaces.write')}
      sortBy={SpaceSortByValues}
      columns={[
        { label: t.common.name, cell: (space) => <SpaceName space={space} /> },
        {
          label: t.spaces.links,
          className: 'number',
          cell: (space) => (
            <RouteLink href={`/links?space_id=${space.id}`}>
              {number(space.links_count)} <span className="sr-only">{t.spaces.linksIn(space.name)}</span>
            </RouteLink>
          ),
        },
        { label: t.common.created, cell: (space) => dateTime(space.created_at) },
      ]}
      form={(space, onSaved, onClose) => <SpaceDialog space={space} onClose={onClose} onSaved={onSaved} />}
      removal={{
        label: t.common.delete,
        title: t.spaces.deleteTitle,
        confirm: (space) => <p>{t.spaces.deleteConfirm(space.name)}</p>,
        done: t.spaces.deleted,
        run: (space) => call(api.DELETE('/api/v1/spaces/{id}', { params: { path: { id: space.id } } })),
      }}
    />
  );
}
