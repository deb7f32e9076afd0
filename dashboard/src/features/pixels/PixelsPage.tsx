import { api, call, deleteById } from '../../api/client';
import { PixelSearchByValues, PixelSortByValues, PixelTypeValues } from '../../api/enums';
import type { PixelType } from '../../api/types';
import { Field } from '../../components/Field';
import { deletion } from '../../components/RemovalDialog';
import { ResourceListPage } from '../../components/ResourceListPage';
import { LIST_DEFAULTS, listQuery } from '../../hooks/listQuery';
import { oneOf } from '../../hooks/useListParams';
import { useResourceList } from '../../hooks/useResourceList';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan } from '../../session/SessionProvider';
import { PixelDialog } from './PixelDialog';
import { PIXEL_TYPE_NAMES, PixelTypeOptions } from './pixelTypes';

const DEFAULTS = { ...LIST_DEFAULTS, search_by: 'name', type: '' };

export default function PixelsPage() {
  const { t, dateTime } = useI18n();
  const list = useResourceList(
    DEFAULTS,
    (values) => ({
      ...listQuery(values, PixelSearchByValues, PixelSortByValues),
      type: oneOf<PixelType | ''>(values.type, PixelTypeValues, '') || undefined,
    }),
    (query, signal) => call(api.GET('/api/v1/pixels', { params: { query }, signal })),
  );
  return (
    <ResourceListPage
      texts={{ ...t.pixels, title: t.nav.pixels }}
      list={list}
      mayWrite={useCan()('pixels.write')}
      searchBy={PixelSearchByValues}
      sortBy={PixelSortByValues}
      filters={
        <Field label={t.pixels.type} className="filter">
          {(control) => (
            <select
              {...control}
              value={list.values.type}
              onChange={(event) => list.update({ type: event.target.value })}
            >
              <option value="">{t.common.all}</option>
              <PixelTypeOptions />
            </select>
          )}
        </Field>
      }
      columns={[
        { label: t.common.name, cell: (pixel) => pixel.name },
        { label: t.pixels.type, cell: (pixel) => PIXEL_TYPE_NAMES[pixel.type] },
        { label: t.pixels.value, cell: (pixel) => <code>{pixel.value}</code> },
        { label: t.common.created, cell: (pixel) => dateTime(pixel.created_at) },
      ]}
      form={(pixel, onSaved, onClose) => <PixelDialog pixel={pixel} onClose={onClose} onSaved={onSaved} />}
      removal={deletion(t, t.pixels, deleteById('/api/v1/pixels/{id}'))}
    />
  );
}
