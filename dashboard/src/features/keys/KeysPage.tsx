import { api, call, deleteById } from '../../api/client';
import { KeySearchByValues, KeySortByValues } from '../../api/enums';
import type { ApiKey } from '../../api/types';
import { nameColumn } from '../../components/DataTable';
import { ResourceListPage } from '../../components/ResourceListPage';
import { useNamedList } from '../../hooks/useResourceList';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan, useSession } from '../../session/SessionProvider';
import { useChoices } from '../links/useChoices';
import { KeyDialog } from './KeyDialog';

export default function KeysPage() {
  const { t, dateTime } = useI18n();
  const session = useSession();
  const { spaces } = useChoices();
  const list = useNamedList(KeySearchByValues, KeySortByValues, (query, signal) =>
    call(api.GET('/api/v1/keys', { params: { query }, signal })),
  );

  /** The key this session was opened with. */
  const isOwn = (key: ApiKey) => key.id === session.key?.id;
  const spaceNames = (ids: number[]) =>
    ids.length === 0
      ? t.keys.everySpace
      : ids.map((id) => spaces.find((space) => space.id === id)?.name ?? `#${id}`).join(', ');

  return (
    <ResourceListPage
      texts={{ ...t.keys, title: t.nav.keys, secret: { title: t.keys.secretTitle, what: t.keys.secretWhat } }}
      list={list}
      mayWrite={useCan()('keys.write')}
      columns={[
        nameColumn(t.common.name, isOwn, t.keys.thisSession),
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
        confirm: t.keys.revokeConfirm,
        warning: (key) => isOwn(key) && t.keys.revokeOwn,
        done: t.keys.revoked,
        run: deleteById('/api/v1/keys/{id}'),
      }}
    />
  );
}
