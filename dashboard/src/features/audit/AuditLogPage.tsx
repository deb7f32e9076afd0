import { api, call } from '../../api/client';
import { AuditActorTypeValues, AuditTargetTypeValues } from '../../api/enums';
import type { AuditEntry } from '../../api/types';
import { useCsvExport } from '../../components/CsvExport';
import { Field } from '../../components/Field';
import { filterSelects, labelledOptions } from '../../components/FilterSelect';
import { NumberInput } from '../../components/NumberInput';
import { ResourceListPage } from '../../components/ResourceListPage';
import { LIST_DEFAULTS, pageQuery } from '../../hooks/listQuery';
import { positiveInt } from '../../hooks/useListParams';
import { useResourceList } from '../../hooks/useResourceList';
import { useSettledText } from '../../hooks/useSettledText';
import { useI18n } from '../../i18n/I18nProvider';
import { changeLines } from './changes';

const DEFAULTS = {
  ...LIST_DEFAULTS,
  action: '',
  actor_type: '',
  target_type: '',
  target_id: '',
  from: '',
  to: '',
};
type Values = Readonly<Record<keyof typeof DEFAULTS, string>>;

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** The first and the last day of the log's period. */
const DAY_FILTERS = ['from', 'to'] as const;

/** The filters of the address as the API takes them: a value it would refuse is left out rather than sent. */
function auditQuery(values: Values) {
  const action = values.action.trim();
  return {
    action: action === '' ? undefined : action.slice(0, 64),
    actor_type: AuditActorTypeValues.find((type) => type === values.actor_type),
    target_type: AuditTargetTypeValues.find((type) => type === values.target_type),
    target_id: positiveInt(values.target_id),
    from: DAY.test(values.from) ? values.from : undefined,
    to: DAY.test(values.to) ? values.to : undefined,
    ...pageQuery(values),
  };
}

/** /audit: who changed what in the workspace, filtered, a page at a time, and the same filters as a CSV file. */
export default function AuditLogPage() {
  const { t, dateTime } = useI18n();
  const list = useResourceList(DEFAULTS, auditQuery, (query, signal) =>
    call(api.GET('/api/v1/audit-log', { params: { query }, signal })),
  );
  const { values, update } = list;
  const csv = useCsvExport(t.audit.exportCsv, 'audit-log.csv', () => {
    const { page: _page, per_page: _perPage, ...query } = auditQuery(values);
    return call(api.GET('/api/v1/audit-log/export', { params: { query }, parseAs: 'blob' }));
  });

  const actor = (entry: AuditEntry) => (
    <>
      {entry.actor.name ?? (entry.actor.id === null ? '' : `#${entry.actor.id}`)}{' '}
      <span className="muted">{t.audit.actorTypes[entry.actor.type]}</span>
    </>
  );
  const changes = (entry: AuditEntry) => {
    const lines = changeLines(entry);
    return lines.length === 0 ? (
      <span className="muted">{t.audit.nothing}</span>
    ) : (
      <ul className="changes">
        {lines.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    );
  };

  return (
    <ResourceListPage
      texts={{ ...t.audit, title: t.nav.audit }}
      list={list}
      mayWrite={false}
      searchable={false}
      rowName={(entry) => entry.action}
      headerActions={csv.button}
      headerNotice={csv.notice}
      filters={<AuditFilters values={values} update={update} />}
      tableClassName="audit-table"
      columns={[
        { label: t.audit.when, cell: (entry) => dateTime(entry.created_at), className: 'nowrap' },
        { label: t.audit.action, cell: (entry) => <code>{entry.action}</code> },
        { label: t.audit.actor, cell: actor },
        {
          label: t.audit.target,
          cell: (entry) =>
            `${t.audit.targetTypes[entry.target.type]}${entry.target.id === null ? '' : ` #${entry.target.id}`}`,
        },
        { label: t.audit.changes, cell: changes },
        { label: t.audit.ip, cell: (entry) => entry.ip ?? '—' },
      ]}
    />
  );
}

/** The log's own filters: the typed ones reach the address once typing pauses, the others at once. */
function AuditFilters({ values, update }: { values: Values; update: (changes: Partial<Values>) => void }) {
  const { t } = useI18n();
  const [action, setAction] = useSettledText(values.action, (value) => update({ action: value }));
  const [targetId, setTargetId] = useSettledText(values.target_id, (value) => update({ target_id: value }));
  const all = { value: '', label: t.common.all };
  const filter = filterSelects(values, update, true);

  return (
    <>
      <Field label={t.audit.action} className="filter">
        {(control) => (
          <input
            {...control}
            type="search"
            maxLength={64}
            spellCheck={false}
            value={action}
            onChange={(event) => setAction(event.target.value)}
          />
        )}
      </Field>
      {filter(t.audit.actorType, 'actor_type', [
        all,
        ...labelledOptions(AuditActorTypeValues, t.audit.actorTypes),
      ])}
      {filter(t.audit.targetType, 'target_type', [
        all,
        ...labelledOptions(AuditTargetTypeValues, t.audit.targetTypes),
      ])}
      <Field label={t.audit.targetId} className="filter filter-narrow">
        {(control) => (
          <NumberInput
            {...control}
            min={1}
            value={targetId}
            onChange={(event) => setTargetId(event.target.value)}
          />
        )}
      </Field>
      {DAY_FILTERS.map((name) => (
        <Field key={name} label={t.audit[name]} className="filter">
          {(control) => (
            <input
              {...control}
              type="date"
              value={values[name]}
              onChange={(event) => update({ [name]: event.target.value })}
            />
          )}
        </Field>
      ))}
    </>
  );
}
