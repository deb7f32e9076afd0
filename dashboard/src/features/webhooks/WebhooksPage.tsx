import { Link as RouteLink } from 'wouter';
import { api, call, deleteById } from '../../api/client';
import { WebhookSearchByValues, WebhookSortByValues } from '../../api/enums';
import { deletion } from '../../components/RemovalDialog';
import { ResourceListPage } from '../../components/ResourceListPage';
import { RowButton } from '../../components/RowButton';
import { useNamedList } from '../../hooks/useResourceList';
import { useI18n } from '../../i18n/I18nProvider';
import { useCan } from '../../session/SessionProvider';
import { useWebhookActions } from './useWebhookActions';
import { WebhookDialog } from './WebhookDialog';

export default function WebhooksPage() {
  const { t, dateTime } = useI18n();
  const mayWrite = useCan()('webhooks.write');
  const list = useNamedList(WebhookSearchByValues, WebhookSortByValues, (query, signal) =>
    call(api.GET('/api/v1/webhooks', { params: { query }, signal })),
  );
  const actions = useWebhookActions(list.page.reload, list.showSecret);

  return (
    <ResourceListPage
      texts={{
        ...t.webhooks,
        title: t.nav.webhooks,
        secret: { title: t.webhooks.secretTitle, what: t.webhooks.secretWhat },
      }}
      list={list}
      mayWrite={mayWrite}
      notice={actions.notice}
      columns={[
        { label: t.common.name, cell: (webhook) => webhook.name },
        { label: t.webhooks.url, className: 'url-cell', cell: (webhook) => webhook.url },
        { label: t.webhooks.events, cell: (webhook) => webhook.events.join(', ') },
        {
          label: t.webhooks.state,
          cell: (webhook) => (
            <>
              <span className={`badge ${webhook.enabled ? 'badge-active' : 'badge-disabled'}`}>
                {webhook.enabled ? t.webhooks.enabled : t.webhooks.disabled}
              </span>
              {webhook.failures > 0 && (
                <span className="muted"> {t.webhooks.failures(webhook.failures)}</span>
              )}
            </>
          ),
        },
        {
          label: t.webhooks.lastDelivery,
          cell: (webhook) =>
            webhook.last_delivery_at
              ? `${dateTime(webhook.last_delivery_at)} (${webhook.last_status ?? '—'})`
              : t.webhooks.noDelivery,
        },
      ]}
      actionsForReaders
      actions={(webhook, open) => (
        <>
          <RouteLink href={`/webhooks/${webhook.id}/deliveries`} className="button">
            {t.webhooks.deliveries} <span className="sr-only">{webhook.name}</span>
          </RouteLink>
          {mayWrite && (
            <>
              <RowButton name={webhook.name} onClick={() => actions.ping(webhook)}>
                {t.webhooks.ping}
              </RowButton>
              <RowButton name={webhook.name} onClick={open.edit}>
                {t.common.edit}
              </RowButton>
              <RowButton name={webhook.name} onClick={() => actions.rotate(webhook)}>
                {t.webhooks.rotate}
              </RowButton>
              <RowButton name={webhook.name} danger onClick={open.remove}>
                {t.common.delete}
              </RowButton>
            </>
          )}
        </>
      )}
      form={(webhook, onSaved, onClose) => (
        <WebhookDialog webhook={webhook} onClose={onClose} onSaved={onSaved} />
      )}
      removal={deletion(t, t.webhooks, deleteById('/api/v1/webhooks/{id}'))}
    >
      {actions.dialog}
    </ResourceListPage>
  );
}
