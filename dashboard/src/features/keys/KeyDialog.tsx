import { useState } from 'react';
import { api, call } from '../../api/client';
import { ScopeValues } from '../../api/enums';
import { errorsUnder } from '../../api/errors';
import type { ApiKey, Scope, Space } from '../../api/types';
import { Checkbox, Field, FieldErrors, NameField } from '../../components/Field';
import { editOrNewTitle, FormDialog, useDialogForm } from '../../components/FormDialog';
import { useI18n } from '../../i18n/I18nProvider';
import { hasScope } from '../../session/scopes';
import { fromLocalInput, toLocalInput } from '../links/linkForm';

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

export function KeyDialog({ apiKey, grantable, spaces, onClose, onSaved }: KeyDialogProps) {
  const { t } = useI18n();
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
  const form = useDialogForm(KEY_FIELDS, save);

  return (
    <FormDialog title={editOrNewTitle(t.keys, apiKey)} form={form} onClose={onClose}>
      <NameField field={form.field('name')} value={name} onChange={setName} maxLength={100} />
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
        <FieldErrors errors={errorsUnder(form.errors, 'scopes')} />
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
          <FieldErrors errors={errorsUnder(form.errors, 'space_ids')} />
        </fieldset>
      )}
      <Field label={t.keys.expires} {...form.field('expires_at')} hint={t.keys.expiresHint}>
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
