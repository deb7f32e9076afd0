import { api, call, deleteById } from '../../api/client';
import { UtmTemplateSearchByValues, UtmTemplateSortByValues } from '../../api/enums';
import { deletion } from '../../components/RemovalDialog';
import { ResourceListPage } from '../../components/ResourceListPage';
import { useNamedList } from '../../hooks/useResourceList';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan } from '../../session/SessionProvider';
import { UTM_FIELDS } from './utm';
import { UtmTemplateDialog } from './UtmTemplateDialog';

/** The workspace's saved UTM parameters, which the link form's builder applies. */
export default function UtmTemplatesPage() {
  const { t, dateTime } = useI18n();
  const list = useNamedList(UtmTemplateSearchByValues, UtmTemplateSortByValues, (query, signal) =>
    call(api.GET('/api/v1/utm-templates', { params: { query }, signal })),
  );
  return (
    <ResourceListPage
      texts={{ ...t.utm, title: t.nav['utm-templates'] }}
      list={list}
      mayWrite={useCan()('links.write')}
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
      removal={deletion(t, t.utm, deleteById('/api/v1/utm-templates/{id}'))}
    />
  );
}
