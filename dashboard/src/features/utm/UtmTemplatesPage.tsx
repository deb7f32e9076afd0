import { api, call } from '../../api/client';
import { UtmTemplateSearchByValues, UtmTemplateSortByValues } from '../../api/enums';
import { ResourceListPage } from '../../components/ResourceListPage';
import { LIST_DEFAULTS, listQuery } from '../../hooks/listQuery';
import { useResourceList } from '../../hooks/useResourceList';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan } from '../../session/SessionProvider';
import { UTM_FIELDS } from './utm';
import { UtmTemplateDialog } from './UtmTemplateDialog';

const DEFAULTS = { ...LIST_DEFAULTS, search_by: 'name' };

/** The workspace's saved UTM parameters, which the link form's builder applies. */
export default function UtmTemplatesPage() {
  const { t, dateTime } = useI18n();
  const list = useResourceList(
    DEFAULTS,
    (values) => listQuery(values, UtmTemplateSearchByValues, UtmTemplateSortByValues),
    (query, signal) => call(api.GET('/api/v1/utm-templates', { params: { query }, signal })),
  );
  return (
    <ResourceListPage
      texts={{ ...t.utm, title: t.nav['utm-templates'] }}
      list={list}
      mayWrite={useCan()('links.write')}
      sortBy={UtmTemplateSortByValues}
      columns={[
        { label: t.common.name, cell: (template) => template.name },
        {
          label: t.utm.parameters,
          cell: (template) => (
            <ul className="utm-parameters">
              {UTM_FIELDS.filter((field) => template[field] !== null).map((field) => (
                <li key={field}>
                  <code>{field}</code>={template[field]}
                </li>
              ))}
            </ul>
          ),
        },
        { label: t.common.created, cell: (template) => dateTime(template.created_at) },
      ]}
      form={(template, onSaved, onClose) => (
        <UtmTemplateDialog template={template} onClose={onClose} onSaved={onSaved} />
      )}
      removal={{
        label: t.common.delete,
        title: t.utm.deleteTitle,
        confirm: (template) => <p>{t.utm.deleteConfirm(template.name)}</p>,
        done: t.utm.deleted,
        run: (template) =>
          call(api.DELETE('/api/v1/utm-templates/{id}', { params: { path: { id: template.id } } })),
      }}
    />
  );
}
