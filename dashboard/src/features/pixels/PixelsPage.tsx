import { useState } from 'react';
import { api, call } from '../../api/client';
import { PixelSearchByValues, PixelSortByValues, PixelTypeValues } from '../../api/enums';
import type { Pixel, PixelType } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { EmptyList } from '../../components/EmptyList';
import { Field } from '../../components/Field';
import { FormDialog } from '../../components/FormDialog';
import { ListControls } from '../../components/ListControls';
import { LoadError, Loading } from '../../components/LoadState';
import { useNotify } from '../../components/Notifications';
import { PageTitle } from '../../components/PageTitle';
import { Pagination } from '../../components/Pagination';
import { LIST_DEFAULTS, listQuery } from '../../hooks/listQuery';
import { oneOf, useListParams } from '../../hooks/useListParams';
import { useLoad } from '../../hooks/useLoad';
import { useSubmit } from '../../hooks/useSubmit';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan } from '../../session/SessionProvider';
import { RowButton } from '../../components/RowButton';

/** The pixel providers by the API's type names; brand names, the same in every language. */
export const PIXEL_TYPE_NAMES: Record<PixelType, string> = {
  adroll: 'AdRoll',
  bing: 'Bing',
  facebook: 'Facebook',
  'google-ads': 'Google Ads',
  'google-analytics': 'Google Analytics',
  'google-tag-manager': 'Google Tag Manager',
  linkedin: 'LinkedIn',
  pinterest: 'Pinterest',
  quora: 'Quora',
  x: 'X',
};

const DEFAULTS = { ...LIST_DEFAULTS, search_by: 'name', type: '' };

export default function PixelsPage() {
  const { t, dateTime } = useI18n();
  const can = useCan();
  const notify = useNotify();
  const [values, update] = useListParams(DEFAULTS);
  const [editing, setEditing] = useState<Pixel | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Pixel | null>(null);
  const mayWrite = can('pixels.write');

  const type =
    values.type === '' ? undefined : oneOf<PixelType | ''>(values.type, PixelTypeValues, '') || undefined;
  const query = { ...listQuery(values, PixelSearchByValues, PixelSortByValues), type };
  const pixels = useLoad(JSON.stringify(query), (signal) =>
    call(api.GET('/api/v1/pixels', { params: { query }, signal })),
  );

  const remove = async (pixel: Pixel) => {
    await call(api.DELETE('/api/v1/pixels/{id}', { params: { path: { id: pixel.id } } }));
    setDeleting(null);
    notify(t.pixels.deleted(pixel.name));
    pixels.reload();
  };

  const page = pixels.data;
  return (
    <section className="page">
      <header className="page-header">
        <PageTitle text={t.nav.pixels} />
        {mayWrite && (
          <div className="page-actions">
            <button type="button" className="primary" onClick={() => setEditing('new')}>
              {t.pixels.new}
            </button>
          </div>
        )}
      </header>
      <p className="hint">{t.pixels.intro}</p>
      <ListControls
        label={t.pixels.filters}
        values={values}
        update={update}
        searchBy={PixelSearchByValues.map((value) => ({ value, label: t.searchBy[value] }))}
        sortBy={PixelSortByValues.map((value) => ({ value, label: t.sortBy[value] }))}
      >
        <Field label={t.pixels.type} className="filter">
          {(control) => (
            <select
              {...control}
              value={values.type}
              onChange={(event) => update({ type: event.target.value })}
            >
              <option value="">{t.common.all}</option>
              {PixelTypeValues.map((value) => (
                <option key={value} value={value}>
                  {PIXEL_TYPE_NAMES[value]}
                </option>
              ))}
            </select>
          )}
        </Field>
      </ListControls>
      {pixels.error !== undefined && <LoadError error={pixels.error} onRetry={pixels.reload} />}
      {page === undefined && pixels.loading && <Loading />}
      {page !== undefined && (
        <div className="list-region" aria-busy={pixels.loading}>
          {page.data.length === 0 ? (
            <EmptyList
              filtered={
                values.search !== DEFAULTS.search ||
                values.type !== DEFAULTS.type ||
                values.page !== DEFAULTS.page
              }
              empty={t.pixels.empty}
              create={mayWrite ? { label: t.pixels.new, onClick: () => setEditing('new') } : undefined}
              onClear={() => update({ search: DEFAULTS.search, type: DEFAULTS.type })}
            />
          ) : (
            <table className="table">
              <caption className="sr-only">{t.nav.pixels}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.common.name}</th>
                  <th scope="col">{t.pixels.type}</th>
                  <th scope="col">{t.pixels.value}</th>
                  <th scope="col">{t.common.created}</th>
                  {mayWrite && (
                    <th scope="col">
                      <span className="sr-only">{t.common.actions}</span>
                    </th>
                  )}
                </tr>
              </thead>
              <tbody>
                {page.data.map((pixel) => (
                  <tr key={pixel.id}>
                    <th scope="row" data-label={t.common.name}>
                      {pixel.name}
                    </th>
                    <td data-label={t.pixels.type}>{PIXEL_TYPE_NAMES[pixel.type]}</td>
                    <td data-label={t.pixels.value}>
                      <code>{pixel.value}</code>
                    </td>
                    <td data-label={t.common.created}>{dateTime(pixel.created_at)}</td>
                    {mayWrite && (
                      <td className="row-actions">
                        <RowButton name={pixel.name} onClick={() => setEditing(pixel)}>
                          {t.common.edit}
                        </RowButton>
                        <RowButton name={pixel.name} danger onClick={() => setDeleting(pixel)}>
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
            label={t.pixels.pages}
            onPage={(next) => update({ page: String(next) })}
          />
        </div>
      )}
      {editing !== null && (
        <PixelDialog
          pixel={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(pixel) => {
            setEditing(null);
            notify(t.pixels.saved(pixel.name));
            pixels.reload();
          }}
        />
      )}
      {deleting !== null && (
        <ConfirmDialog
          title={t.pixels.deleteTitle}
          confirmLabel={t.common.delete}
          onConfirm={() => remove(deleting)}
          onClose={() => setDeleting(null)}
        >
          <p>{t.pixels.deleteConfirm(deleting.name)}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

const PIXEL_FIELDS = ['name', 'type', 'value'] as const;

function PixelDialog({
  pixel,
  onClose,
  onSaved,
}: {
  pixel: Pixel | null;
  onClose: () => void;
  onSaved: (pixel: Pixel) => void;
}) {
  const { t } = useI18n();
  const submission = useSubmit();
  const [name, setName] = useState(pixel?.name ?? '');
  const [type, setType] = useState<PixelType>(pixel?.type ?? 'google-analytics');
  const [value, setValue] = useState(pixel?.value ?? '');

  const save = async () => {
    const body = { name: name.trim(), type, value: value.trim() };
    const saved = pixel
      ? await call(api.PUT('/api/v1/pixels/{id}', { params: { path: { id: pixel.id } }, body }))
      : await call(api.POST('/api/v1/pixels', { body }));
    onSaved(saved.data);
  };

  return (
    <FormDialog
      title={pixel ? t.pixels.editTitle(pixel.name) : t.pixels.new}
      submission={submission}
      fields={PIXEL_FIELDS}
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
      <Field label={t.pixels.type} {...submission.field('type')}>
        {(control) => (
          <select {...control} value={type} onChange={(event) => setType(event.target.value as PixelType)}>
            {PixelTypeValues.map((option) => (
              <option key={option} value={option}>
                {PIXEL_TYPE_NAMES[option]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t.pixels.value} {...submission.field('value')} hint={t.pixels.valueHint}>
        {(control) => (
          <input
            {...control}
            required
            maxLength={255}
            spellCheck={false}
            autoCapitalize="off"
            value={value}
            onChange={(event) => setValue(event.target.value)}
          />
        )}
      </Field>
    </FormDialog>
  );
}
