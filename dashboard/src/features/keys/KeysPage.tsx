import { api, call } from '../../api/client';
import { KeySearchByValues, KeySortByValues } from '../../api/enums';
import { ResourceListPage } from '../../components/ResourceListPage';
import { LIST_DEFAULTS, listQuery } from '../../hooks/listQuery';
import { useResourceList } from '../../hooks/useResourceList';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan, useSession } from '../../session/SessionProvider';
import { useChoices } from '../links/useChoices';
import { KeyDialog } from './KeyDialog';

const DEFAULTS = { ...LIST_DEFAULTS, search_by: 'name' };

export default function KeysPage() {
  const { t, dateTime } = useI18n();
  const session = useSession();
  const { spaces } = useChoices();
  const list = useResourceList(
    DEFAULTS,
    (values) => listQuery(values, KeySearchByValues, KeySortByValues),
    (query, signal) => call(api.GET('/api/v1/keys', { params: { query }, signal })),
  );

  const spaceNames = (ids: number[]) =>
    ids.length === 0
      ? t.keys.everySpace
      : ids.map((id) => spaces.find((space) => space.id === id)?.name ?? `#${id}`).join(', ');

  return (
    <ResourceListPage
      texts={{ ...t.keys, title: t.nav.keys, secret: { title: t.keys.secretTitle, what: t.keys.secretWhat } }}
      list={list}
      mayWrite={useCan()('keys.write')}
      searchBy={KeySearchByValues}
      sortBy={KeySortByValues}
      columns={[
        {
          label: t.common.name,
          cell: (key) => (
            <>
              {key.name}
              {key.id === session.key?.id && <span className="badge">{t.keys.thisSession}</span>}
            </>
          ),
        },
        { label: t.keys.prefix, cell: (key) => <code className="nowrap">{key.prefix ?? '—'}</code> },
        { label: t.keys.scopes, className: 'scopes-cell', cell: (key) => key.scopes.join(', ') },
        { label: t.keys.spaces, cell: (key) => spaceNames(key.space_ids) },
        { label: t.keys.expires, cell: (key) => (key.expires_at ? dateTime(key.expires_at) : t.keys.never) },
        {
          label: t.keys.lastUsed,
          cell: (key) => (key.last_used_at ? dateTime(key.last_used_at) : t.keys.never),
        },
      ]}
      form={(key, onSaved, onClose) => (
        <KeyDialog
          apiKey={key}
          grantable={session.scopes}
          spaces={spaces}
          onClose={onClose}
          onSaved={onSaved}
        />
      )}
      removal={{
        label: t.keys.revoke,
        title: t.keys.revokeTitle,
        confirm: (key) => (
          <>
            <p>{t.keys.revokeConfirm(key.name)}</p>
            {key.id === session.key?.id && <p className="warning">{t.keys.revokeOwn}</p>}
          </>
        ),
        done: t.keys.revoked,
        run: (key) => call(api.DELETE('/api/v1/keys/{id}', { params: { path: { id: key.id } } })),
      }}
    />
  );
}
