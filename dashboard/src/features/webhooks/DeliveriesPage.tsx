import { Link as RouteLink } from 'wouter';
import { api, call } from '../../api/client';
import { PerPageValues } from '../../api/enums';
import { DataTable, type Column } from '../../components/DataTable';
import { Field } from '../../components/Field';
import { LoadError, Loading } from '../../components/LoadState';
import { PageTitle } from '../../components/PageTitle';
import { Pagination } from '../../components/Pagination';
import { pageQuery } from '../../hooks/listQuery';
import { useListParams } from '../../hooks/useListParams';
import { useLoad } from '../../hooks/useLoad';
import { useI18n } from '../../i18n/I18nProvider';
import type { Delivery } from '../../api/types';
import { delivered } from './delivery';

const DEFAULTS = { sort: 'desc', per_page: '25', page: '1' } as const;

/** /webhooks/:id/deliveries: each attempt to deliver an event, newest first. */
export default function DeliveriesPage({ id }: { id: number }) {
  const { t, number, dateTime } = useI18n();
  const [values, update] = useListParams(DEFAULTS);
  const query = pageQuery(values);
  const webhook = useLoad(`webhook:${id}`, (signal) =>
    call(api.GET('/api/v1/webhooks/{id}', { params: { path: { id } }, signal })),
  );
  const deliveries = useLoad(`deliveries:${id}:${JSON.stringify(query)}`, (signal) =>
    call(api.GET('/api/v1/webhooks/{id}/deliveries', { params: { path: { id }, query }, signal })),
  );
  const name = webhook.data?.data.name ?? `#${id}`;
  const page = deliveries.data;
  const columns: Column<Delivery>[] = [
    { label: t.webhooks.when, cell: (delivery) => dateTime(delivery.created_at) },
    {
      label: t.webhooks.event,
      cell: (delivery) => (
        <>
          <code>{delivery.type}</code> <span className="muted">{delivery.event_id}</span>
        </>
      ),
    },
    { label: t.webhooks.attempt, cell: (delivery) => number(delivery.attempt), className: 'number' },
    {
      label: t.webhooks.result,
      cell: (delivery) => (
        <>
          <span className={`badge ${delivered(delivery) ? 'badge-active' : 'badge-expired'}`}>
            {delivery.status ?? t.webhooks.noAnswer}
          </span>
          {delivery.error && <span className="muted"> {delivery.error}</span>}
        </>
      ),
    },
    {
      label: t.webhooks.duration,
      cell: (delivery) => t.webhooks.ms(number(delivery.duration_ms)),
      className: 'number',
    },
  ];

  return (
    <section className="page">
      <header className="page-header">
        <PageTitle text={t.webhooks.deliveriesTitle(name)} />
        <div className="page-actions">
          <RouteLink href="/webhooks" className="button">
            {t.webhooks.back}
          </RouteLink>
        </div>
      </header>
      <div className="filters" role="group" aria-label={t.webhooks.deliveryOptions}>
        <Field label={t.common.order} className="filter">
          {(control) => (
            <select
              {...control}
              value={values.sort}
              onChange={(event) => update({ sort: event.target.value })}
            >
              <option value="desc">{t.webhooks.newestFirst}</option>
              <option value="asc">{t.webhooks.oldestFirst}</option>
            </select>
          )}
        </Field>
        <Field label={t.common.perPage} className="filter">
          {(control) => (
            <select
              {...control}
              value={values.per_page}
              onChange={(event) => update({ per_page: event.target.value })}
            >
              {PerPageValues.map((value) => (
                <option key={value} value={String(value)}>
                  {value}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      {deliveries.error !== undefined && <LoadError error={deliveries.error} onRetry={deliveries.reload} />}
      {page === undefined && deliveries.loading && <Loading />}
      {page !== undefined && (
        <div className="list-region" aria-busy={deliveries.loading}>
          {page.data.length === 0 ? (
            <p className="empty">{t.webhooks.noDeliveries}</p>
          ) : (
            <DataTable caption={t.webhooks.deliveries} columns={columns} rows={page.data} />
          )}
          <Pagination
            meta={page.meta}
            label={t.webhooks.pages}
            onPage={(next) => update({ page: String(next) })}
          />
        </div>
      )}
    </section>
  );
}
