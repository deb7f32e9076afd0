import { useState } from 'react';
import { api, call } from '../../api/client';
import { KeySearchByValues, KeySortByValues, ScopeValues } from '../../api/enums';
import type { ApiKey, Scope, Space } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Checkbox, Field, FieldErrors } from '../../components/Field';
import { EmptyList } from '../../components/EmptyList';
import { FormDialog } from '../../components/FormDialog';
import { ListControls } from '../../components/ListControls';
import { LoadError, Loading } from '../../components/LoadState';
import { useNotify } from '../../components/Notifications';
import { PageTitle } from '../../components/PageTitle';
import { Pagination } from '../../components/Pagination';
import { SecretDialog } from '../../components/SecretDialog';
import { LIST_DEFAULTS, listQuery } from '../../hooks/listQuery';
import { useListParams } from '../../hooks/useListParams';
import { useLoad } from '../../hooks/useLoad';
import { useSubmit } from '../../hooks/useSubmit';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan, useSession } from '../../session/SessionProvider';
import { hasScope } from '../../session/scopes';
import { fromLocalInput, toLocalInput } from '../links/linkForm';
import { useChoices } from '../links/useChoices';
import { RowButton } from '../../components/RowButton';

const DEFAULTS = { ...LIST_DEFAULTS, search_by: 'name' };

export default function KeysPage() {
  const { t, dateTime } = useI18n();
  const can = useCan();
  const session = useSession();
  const notify = useNotify();
  const { spaces } = useChoices();
  const [values, update] = useListParams(DEFAULTS);
  const [editing, setEditing] = useState<ApiKey | 'new' | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);
  const [secret, setSecret] = useState<{ name: string; key: string } | null>(null);
  const mayWrite = can('keys.write');

  const query = listQuery(values, KeySearchByValues, KeySortByValues);
  const keys = useLoad(JSON.stringify(query), (signal) =>
    call(api.GET('/api/v1/keys', { params: { query }, signal })),
  );

  const revoke = async (key: ApiKey) => {
    await call(api.DELETE('/api/v1/keys/{id}', { params: { path: { id: key.id } } }));
    setRevoking(null);
    notify(t.keys.revoked(key.name));
    keys.reload();
  };

  const spaceNames = (ids: number[]) =>
    ids.length === 0
      ? t.keys.everySpace
      : ids.map((id) => spaces.find((space) => space.id === id)?.name ?? `#${id}`).join(', ');

  const page = keys.data;
  return (
    <section className="page">
      <header className="page-header">
        <PageTitle text={t.nav.keys} />
        {mayWrite && (
          <div className="page-actions">
            <button type="button" className="primary" onClick={() => setEditing('new')}>
              {t.keys.new}
            </button>
          </div>
        )}
      </header>
      <p className="hint">{t.keys.intro}</p>
      <ListControls
        label={t.keys.filters}
        values={values}
        update={update}
        searchBy={KeySearchByValues.map((value) => ({ value, label: t.searchBy[value] }))}
        sortBy={KeySortByValues.map((value) => ({ value, label: t.sortBy[value] }))}
      />
      {keys.error !== undefined && <LoadError error={keys.error} onRetry={keys.reload} />}
      {page === undefined && keys.loading && <Loading />}
      {page !== undefined && (
        <div className="list-region" aria-busy={keys.loading}>
          {page.data.length === 0 ? (
            <EmptyList
              filtered={values.search !== DEFAULTS.search || values.page !== DEFAULTS.page}
              empty={t.keys.empty}
              create={mayWrite ? { label: t.keys.new, onClick: () => setEditing('new') } : undefined}
              onClear={() => update({ search: DEFAULTS.search })}
            />
          ) : (
            <table className="table">
              <caption className="sr-only">{t.nav.keys}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.common.name}</th>
                  <th scope="col">{t.keys.prefix}</th>
                  <th scope="col">{t.keys.scopes}</th>
                  <th scope="col">{t.keys.spaces}</th>
                  <th scope="col">{t.keys.expires}</th>
                  <th scope="col">{t.keys.lastUsed}</th>
                  {mayWrite && (
                    <th scope="col">
                      <span className="sr-only">{t.common.actions}</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {page.data.map((key) => (
                  <tr key={key.id}>
                    <th scope="row" data-label={t.common.name}>
                      {key.name}
                      {key.id === session.key.id && <span className="badge">{t.keys.thisSession}</span>}
                    </th>
                    <td data-label={t.keys.prefix}>
                      <code className="nowrap">{key.prefix ?? '—'}</code>
                    </td>
                    <td data-label={t.keys.scopes} className="scopes-cell">
                      {key.scopes.join(', ')}
                    </td>
                    <td data-label={t.keys.spaces}>{spaceNames(key.space_ids)}</td>
                    <td data-label={t.keys.expires}>
                      {key.expires_at ? dateTime(key.expires_at) : t.keys.never}
                    </td>
                    <td data-label={t.keys.lastUsed}>
                      {key.last_used_at ? dateTime(key.last_used_at) : t.keys.never}
                    </td>
                    {mayWrite && (
                      <td className="row-actions">
                        <RowButton name={key.name} onClick={() => setEditing(key)}>
                          {t.common.edit}
                        </RowButton>
                        <RowButton name={key.name} danger onClick={() => setRevoking(key)}>
                          {t.keys.revoke}
                        </RowButton>
                      </td>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Pagination
            meta={page.meta}
            label={t.keys.pages}
            onPage={(next) => update({ page: String(next) })}
          />
        </div>
      )}
      {editing !== null && (
        <KeyDialog
          apiKey={editing === 'new' ? null : editing}
          grantable={session.scopes}
          spaces={spaces}
          onClose={() => setEditing(null)}
          onSaved={(saved, key) => {
            setEditing(null);
            keys.reload();
            if (key !== undefined) setSecret({ name: saved.name, key });
            else notify(t.keys.saved(saved.name));
          }}
        />
      )}
      {secret !== null && (
        <SecretDialog
          title={t.keys.secretTitle(secret.name)}
          secret={secret.key}
          what={t.keys.secretWhat}
          onClose={() => setSecret(null)}
        />
      )}
      {revoking !== null && (
        <ConfirmDialog
          title={t.keys.revokeTitle}
          confirmLabel={t.keys.revoke}
          onConfirm={() => revoke(revoking)}
          onClose={() => setRevoking(null)}
        >
          <p>{t.keys.revokeConfirm(revoking.name)}</p>
          {revoking.id === session.key.id && <p className="warning">{t.keys.revokeOwn}</p>}
        </ConfirmDialog>
      )}
    </section>
  );
}

const KEY_FIELDS = ['name', 'scopes', 'space_ids', 'expires_at'] as const;

/** The resources whose scopes the form groups, each with a read and, where the API has one, a write scope. */
function scopeGroups(): { resource: string; scopes: Scope[] }[] {
  const groups = new Map<string, Scope[]>();
  for (const scope of ScopeValues) {
    const resource = scope.split('.')[0] ?? scope;
    groups.set(resource, [...(groups.get(resource) ?? []), scope]);
  }
  return [...groups].map(([resource, scopes]) => ({ resource, scopes }));
}

interface KeyDialogProps {
  apiKey: ApiKey | null;
  /** The session's own scopes: a key can grant no more than it has. */
  grantable: Scope[];
  spaces: Space[];
  onClose: () => void;
  /** `key` is the new key's secret, given once on create. */
  onSaved: (saved: ApiKey, key?: string) => void;
}

function KeyDialog({ apiKey, grantable, spaces, onClose, onSaved }: KeyDialogProps) {
  const { t } = useI18n();
  const submission = useSubmit();
  const [name, setName] = useState(apiKey?.name ?? '');
  const [scopes, setScopes] = useState<Scope[]>(apiKey?.scopes ?? []);
  const [spaceIds, setSpaceIds] = useState<number[]>(apiKey?.space_ids ?? []);
  const [expires, setExpires] = useState(toLocalInput(apiKey?.expires_at ?? null));

  const toggle = (scope: Scope, checked: boolean) => {
    setScopes((previous) => {
      const without = previous.filter((item) => item !== scope);
      if (!checked) return without;
      // A write scope includes its read: both are shown checked, as the API grants them.
      const read = scope.endsWith('.write') ? (scope.replace(/\.write$/, '.read') as Scope) : null;
      return [...without, scope, ...(read && !without.includes(read) ? [read] : [])];
    });
  };

  const save = async () => {
    const body = {
      name: name.trim(),
      scopes: ScopeValues.filter((scope) => scopes.includes(scope)),
      space_ids: spaceIds,
      expires_at: expires === '' ? null : fromLocalInput(expires),
    };
    if (apiKey) {
      const saved = await call(api.PUT('/api/v1/keys/{id}', { params: { path: { id: apiKey.id } }, body }));
      onSaved(saved.data);
    } else {
      const created = await call(api.POST('/api/v1/keys', { body }));
      onSaved(created.data, created.data.key);
    }
  };

  const scopeErrors = Object.entries(submission.errors)
    .filter(([field]) => field === 'scopes' || field.startsWith('scopes.'))
    .flatMap(([, messages]) => messages);
  const spaceErrors = Object.entries(submission.errors)
    .filter(([field]) => field === 'space_ids' || field.startsWith('space_ids.'))
    .flatMap(([, messages]) => messages);

  return (
    <FormDialog
      title={apiKey ? t.keys.editTitle(apiKey.name) : t.keys.new}
      submission={submission}
      fields={KEY_FIELDS}
      onSave={save}
      onClose={onClose}
    >
      <Field label={t.common.name} {...submission.field('name')}>
        {(control) => (
          <input
            {...control}
            required
            maxLength={100}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        )}
      </Field>
      <fieldset className="checks scope-grid">
        <legend>{t.keys.scopes}</legend>
        <p className="hint">{t.keys.scopesHint}</p>
        {scopeGroups().map(({ resource, scopes: group }) => (
          <div key={resource} className="scope-group">
            {group.map((scope) => {
              const impliedByWrite =
                scope.endsWith('.read') && scopes.includes(scope.replace(/\.read$/, '.write') as Scope);
              return (
                <Checkbox
                  key={scope}
                  label={t.keys.scopeNames[scope]}
                  checked={scopes.includes(scope) || impliedByWrite}
                  disabled={!hasScope(grantable, scope) || impliedByWrite}
                  onChange={(checked) => toggle(scope, checked)}
                />
              );
            })}
          </div>
        ))}
        <FieldErrors errors={scopeErrors} />
      </fieldset>
      {spaces.length > 0 && (
        <fieldset className="checks">
          <legend>{t.keys.spaces}</legend>
          <p className="hint">{t.keys.spacesHint}</p>
          {spaces.map((space) => (
            <Checkbox
              key={space.id}
              label={space.name}
              checked={spaceIds.includes(space.id)}
              onChange={(checked) =>
                setSpaceIds((previous) =>
                  checked ? [...previous, space.id] : previous.filter((id) => id !== space.id),
                )
              }
            />
          ))}
          <FieldErrors errors={spaceErrors} />
        </fieldset>
      )}
      <Field label={t.keys.expires} {...submission.field('expires_at')} hint={t.keys.expiresHint}>
        {(control) => (
          <input
            {...control}
            type="datetime-local"
            value={expires}
            onChange={(event) => setExpires(event.target.value)}
          />
        )}
      </Field>
    </FormDialog>
  );
}
