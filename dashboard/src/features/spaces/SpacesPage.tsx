import { useState } from 'react';
import { Link as RouteLink } from 'wouter';
import { api, call } from '../../api/client';
import { SpaceColorValues, SpaceSearchByValues, SpaceSortByValues } from '../../api/enums';
import type { Space, SpaceColor } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Field, FieldErrors } from '../../components/Field';
import { EmptyList } from '../../components/EmptyList';
import { FormDialog } from '../../components/FormDialog';
import { ListControls } from '../../components/ListControls';
import { LoadError, Loading } from '../../components/LoadState';
import { useNotify } from '../../components/Notifications';
import { PageTitle } from '../../components/PageTitle';
import { Pagination } from '../../components/Pagination';
import { LIST_DEFAULTS, listQuery } from '../../hooks/listQuery';
import { useListParams } from '../../hooks/useListParams';
import { useLoad } from '../../hooks/useLoad';
import { useSubmit } from '../../hooks/useSubmit';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan } from '../../session/SessionProvider';
import { SpaceName } from './SpaceName';
import { RowButton } from '../../components/RowButton';

const DEFAULTS = { ...LIST_DEFAULTS, search_by: 'name' };

export default function SpacesPage() {
  const { t, number, dateTime } = useI18n();
  const can = useCan();
  const notify = useNotify();
  const [values, update] = useListParams(DEFAULTS);
  const [editing, setEditing] = useState<Space | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Space | null>(null);
  const mayWrite = can('spaces.write');

  const query = listQuery(values, SpaceSearchByValues, SpaceSortByValues);
  const spaces = useLoad(JSON.stringify(query), (signal) =>
    call(api.GET('/api/v1/spaces', { params: { query }, signal })),
  );

  const remove = async (space: Space) => {
    await call(api.DELETE('/api/v1/spaces/{id}', { params: { path: { id: space.id } } }));
    setDeleting(null);
    notify(t.spaces.deleted(space.name));
    spaces.reload();
  };

  const page = spaces.data;
  return (
    <section className="page">
      <header className="page-header">
        <PageTitle text={t.nav.spaces} />
        {mayWrite && (
          <div className="page-actions">
            <button type="button" className="primary" onClick={() => setEditing('new')}>
              {t.spaces.new}
            </button>
          </div>
        )}
      </header>
      <ListControls
        label={t.spaces.filters}
        values={values}
        update={update}
        sortBy={SpaceSortByValues.map((value) => ({ value, label: t.sortBy[value] }))}
      />
      {spaces.error !== undefined && <LoadError error={spaces.error} onRetry={spaces.reload} />}
      {page === undefined && spaces.loading && <Loading />}
      {page !== undefined && (
        <div className="list-region" aria-busy={spaces.loading}>
          {page.data.length === 0 ? (
            <EmptyList
              filtered={values.search !== DEFAULTS.search || values.page !== DEFAULTS.page}
              empty={t.spaces.empty}
              create={mayWrite ? { label: t.spaces.new, onClick: () => setEditing('new') } : undefined}
              onClear={() => update({ search: DEFAULTS.search })}
            />
          ) : (
            <table className="table">
              <caption className="sr-only">{t.nav.spaces}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.common.name}</th>
                  <th scope="col" className="number">
                    {t.spaces.links}
                  </th>
                  <th scope="col">{t.common.created}</th>
                  {mayWrite && (
                    <th scope="col">
                      <span className="sr-only">{t.common.actions}</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {page.data.map((space) => (
                  <tr key={space.id}>
                    <th scope="row" data-label={t.common.name}>
                      <SpaceName space={space} />
                    </th>
                    <td className="number" data-label={t.spaces.links}>
                      <RouteLink href={`/links?space_id=${space.id}`}>
                        {number(space.links_count)}{' '}
                        <span className="sr-only">{t.spaces.linksIn(space.name)}</span>
                      </RouteLink>
                    </td>
                    <td data-label={t.common.created}>{dateTime(space.created_at)}</td>
                    {mayWrite && (
                      <td className="row-actions">
                        <RowButton name={space.name} onClick={() => setEditing(space)}>
                          {t.common.edit}
                        </RowButton>
                        <RowButton name={space.name} danger onClick={() => setDeleting(space)}>
                          {t.common.delete}
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
            label={t.spaces.pages}
            onPage={(next) => update({ page: String(next) })}
          />
        </div>
      )}
      {editing !== null && (
        <SpaceDialog
          space={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(space) => {
            setEditing(null);
            notify(t.spaces.saved(space.name));
            spaces.reload();
          }}
        />
      )}
      {deleting !== null && (
        <ConfirmDialog
          title={t.spaces.deleteTitle}
          confirmLabel={t.common.delete}
          onConfirm={() => remove(deleting)}
          onClose={() => setDeleting(null)}
        >
          <p>{t.spaces.deleteConfirm(deleting.name)}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

const SPACE_FIELDS = ['name', 'color'] as const;

function SpaceDialog({
  space,
  onClose,
  onSaved,
}: {
  space: Space | null;
  onClose: () => void;
  onSaved: (space: Space) => void;
}) {
  const { t } = useI18n();
  const submission = useSubmit();
  const [name, setName] = useState(space?.name ?? '');
  const [color, setColor] = useState<SpaceColor>(space?.color ?? 1);

  const save = async () => {
    const body = { name: name.trim(), color };
    const saved = space
      ? await call(api.PUT('/api/v1/spaces/{id}', { params: { path: { id: space.id } }, body }))
      : await call(api.POST('/api/v1/spaces', { body }));
    onSaved(saved.data);
  };

  return (
    <FormDialog
      title={space ? t.spaces.editTitle(space.name) : t.spaces.new}
      submission={submission}
      fields={SPACE_FIELDS}
      onSave={save}
      onClose={onClose}
    >
      <Field label={t.common.name} {...submission.field('name')}>
        {(control) => (
          <input
            {...control}
            required
            maxLength={255}
            value={name}
            onChange={(event) => setName(event.target.value)}
          />
        )}
      </Field>
      <fieldset className="colors">
        <legend>{t.spaces.color}</legend>
        {SpaceColorValues.map((value) => (
          <label key={value} className="color-choice">
            <input
              type="radio"
              name="color"
              value={value}
              checked={color === value}
              onChange={() => setColor(value)}
            />
            <span className={`space-dot space-color-${value}`} aria-hidden="true" />
            {t.spaces.colors[value]}
          </label>
        ))}
        <FieldErrors errors={submission.errors.color} />
      </fieldset>
    </FormDialog>
  );
}
