import { useState } from 'react';
import { Link as RouteLink } from 'wouter';
import { api, call } from '../../api/client';
import { describeError } from '../../api/describe';
import { EventTypeValues, WebhookSearchByValues, WebhookSortByValues } from '../../api/enums';
import type { EventType, Webhook } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { Checkbox, Field, FieldErrors } from '../../components/Field';
import { UrlInput, withScheme } from '../../components/UrlInput';
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
import { useCan } from '../../session/SessionProvider';
import { deliveryOutcome } from './delivery';
import { RowButton } from '../../components/RowButton';

const DEFAULTS = { ...LIST_DEFAULTS, search_by: 'name' };

export default function WebhooksPage() {
  const { t, dateTime } = useI18n();
  const can = useCan();
  const notify = useNotify();
  const [values, update] = useListParams(DEFAULTS);
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Webhook | null>(null);
  const [rotating, setRotating] = useState<Webhook | null>(null);
  const [secret, setSecret] = useState<{ name: string; secret: string } | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const mayWrite = can('webhooks.write');

  const query = listQuery(values, WebhookSearchByValues, WebhookSortByValues);
  const webhooks = useLoad(JSON.stringify(query), (signal) =>
    call(api.GET('/api/v1/webhooks', { params: { query }, signal })),
  );

  const remove = async (webhook: Webhook) => {
    await call(api.DELETE('/api/v1/webhooks/{id}', { params: { path: { id: webhook.id } } }));
    setDeleting(null);
    notify(t.webhooks.deleted(webhook.name));
    webhooks.reload();
  };

  const rotate = async (webhook: Webhook) => {
    const rotated = await call(
      api.POST('/api/v1/webhooks/{id}/secret', { params: { path: { id: webhook.id } } }),
    );
    setRotating(null);
    setSecret({ name: webhook.name, secret: rotated.data.secret });
  };

  const ping = async (webhook: Webhook) => {
    setActionError(null);
    try {
      const sent = await call(
        api.POST('/api/v1/webhooks/{id}/test', { params: { path: { id: webhook.id } } }),
      );
      notify(deliveryOutcome(t, sent.data));
      webhooks.reload();
    } catch (error) {
      setActionError(describeError(t, error));
    }
  };

  const page = webhooks.data;
  return (
    <section className="page">
      <header className="page-header">
        <PageTitle text={t.nav.webhooks} />
        {mayWrite && (
          <div className="page-actions">
            <button type="button" className="primary" onClick={() => setEditing('new')}>
              {t.webhooks.new}
            </button>
          </div>
        )}
      </header>
      <p className="hint">{t.webhooks.intro}</p>
      <ListControls
        label={t.webhooks.filters}
        values={values}
        update={update}
        searchBy={WebhookSearchByValues.map((value) => ({ value, label: t.searchBy[value] }))}
        sortBy={WebhookSortByValues.map((value) => ({ value, label: t.sortBy[value] }))}
      />
      {actionError !== null && (
        <p role="alert" className="error-text">
          {actionError}
        </p>
      )}
      {webhooks.error !== undefined && <LoadError error={webhooks.error} onRetry={webhooks.reload} />}
      {page === undefined && webhooks.loading && <Loading />}
      {page !== undefined && (
        <div className="list-region" aria-busy={webhooks.loading}>
          {page.data.length === 0 ? (
            <EmptyList
              filtered={values.search !== DEFAULTS.search || values.page !== DEFAULTS.page}
              empty={t.webhooks.empty}
              create={mayWrite ? { label: t.webhooks.new, onClick: () => setEditing('new') } : undefined}
              onClear={() => update({ search: DEFAULTS.search })}
            />
          ) : (
            <table className="table">
              <caption className="sr-only">{t.nav.webhooks}</caption>
              <thead>
                <tr>
                  <th scope="col">{t.common.name}</th>
                  <th scope="col">{t.webhooks.url}</th>
                  <th scope="col">{t.webhooks.events}</th>
                  <th scope="col">{t.webhooks.state}</th>
                  <th scope="col">{t.webhooks.lastDelivery}</th>
                  <th scope="col">
                    <span className="sr-only">{t.common.actions}</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {page.data.map((webhook) => (
                  <tr key={webhook.id}>
                    <th scope="row" data-label={t.common.name}>
                      {webhook.name}
                    </th>
                    <td data-label={t.webhooks.url} className="url-cell">
                      {webhook.url}
                    </td>
                    <td data-label={t.webhooks.events}>{webhook.events.join(', ')}</td>
                    <td data-label={t.webhooks.state}>
                      <span className={`badge ${webhook.enabled ? 'badge-active' : 'badge-disabled'}`}>
                        {webhook.enabled ? t.webhooks.enabled : t.webhooks.disabled}
                      </span>
                      {webhook.failures > 0 && (
                        <span className="muted"> {t.webhooks.failures(webhook.failures)}</span>
                      )}
                    </td>
                    <td data-label={t.webhooks.lastDelivery}>
                      {webhook.last_delivery_at
                        ? `${dateTime(webhook.last_delivery_at)} (${webhook.last_status ?? '—'})`
                        : t.webhooks.noDelivery}
                    </td>
                    <td className="row-actions">
                      <RouteLink href={`/webhooks/${webhook.id}/deliveries`} className="button">
                        {t.webhooks.deliveries} <span className="sr-only">{webhook.name}</span>
                      </RouteLink>
                      {mayWrite && (
                        <>
                          <RowButton name={webhook.name} onClick={() => void ping(webhook)}>
                            {t.webhooks.ping}
                          </RowButton>
                          <RowButton name={webhook.name} onClick={() => setEditing(webhook)}>
                            {t.common.edit}
                          </RowButton>
                          <RowButton name={webhook.name} onClick={() => setRotating(webhook)}>
                            {t.webhooks.rotate}
                          </RowButton>
                          <RowButton name={webhook.name} danger onClick={() => setDeleting(webhook)}>
                            {t.common.delete}
                          </RowButton>
                        </>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          <Pagination
            meta={page.meta}
            label={t.webhooks.pages}
            onPage={(next) => update({ page: String(next) })}
          />
        </div>
      )}
      {editing !== null && (
        <WebhookDialog
          webhook={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={(saved, newSecret) => {
            setEditing(null);
            webhooks.reload();
            if (newSecret !== undefined) setSecret({ name: saved.name, secret: newSecret });
            else notify(t.webhooks.saved(saved.name));
          }}
        />
      )}
      {secret !== null && (
        <SecretDialog
          title={t.webhooks.secretTitle(secret.name)}
          secret={secret.secret}
          what={t.webhooks.secretWhat}
          onClose={() => setSecret(null)}
        />
      )}
      {rotating !== null && (
        <ConfirmDialog
          title={t.webhooks.rotateTitle}
          confirmLabel={t.webhooks.rotate}
          onConfirm={() => rotate(rotating)}
          onClose={() => setRotating(null)}
        >
          <p>{t.webhooks.rotateConfirm(rotating.name)}</p>
        </ConfirmDialog>
      )}
      {deleting !== null && (
        <ConfirmDialog
          title={t.webhooks.deleteTitle}
          confirmLabel={t.common.delete}
          onConfirm={() => remove(deleting)}
          onClose={() => setDeleting(null)}
        >
          <p>{t.webhooks.deleteConfirm(deleting.name)}</p>
        </ConfirmDialog>
      )}
    </section>
  );
}

const WEBHOOK_FIELDS = ['name', 'url', 'events', 'enabled'] as const;

interface WebhookDialogProps {
  webhook: Webhook | null;
  onClose: () => void;
  /** `secret` is the signing secret, given once on create. */
  onSaved: (saved: Webhook, secret?: string) => void;
}

function WebhookDialog({ webhook, onClose, onSaved }: WebhookDialogProps) {
  const { t } = useI18n();
  const submission = useSubmit();
  const [name, setName] = useState(webhook?.name ?? '');
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [events, setEvents] = useState<EventType[]>(webhook?.events ?? ['link.created']);
  const [enabled, setEnabled] = useState(webhook ? webhook.enabled === 1 : true);

  const save = async () => {
    const body = {
      name: name.trim(),
      url: withScheme(url),
      events: EventTypeValues.filter((event) => events.includes(event)),
      enabled: enabled ? (1 as const) : (0 as const),
    };
    if (webhook) {
      const saved = await call(
        api.PUT('/api/v1/webhooks/{id}', { params: { path: { id: webhook.id } }, body }),
      );
      onSaved(saved.data);
    } else {
      const created = await call(api.POST('/api/v1/webhooks', { body }));
      onSaved(created.data, created.data.secret);
    }
  };

  const eventErrors = Object.entries(submission.errors)
    .filter(([field]) => field === 'events' || field.startsWith('events.'))
    .flatMap(([, messages]) => messages);

  return (
    <FormDialog
      title={webhook ? t.webhooks.editTitle(webhook.name) : t.webhooks.new}
      submission={submission}
      fields={WEBHOOK_FIELDS}
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
      <Field label={t.webhooks.url} {...submission.field('url')} hint={t.webhooks.urlHint}>
        {(control) => <UrlInput {...control} required maxLength={2048} value={url} onChange={setUrl} />}
      </Field>
      <fieldset className="checks">
        <legend>{t.webhooks.events}</legend>
        {EventTypeValues.map((event) => (
          <Checkbox
            key={event}
            label={
              <>
                <code>{event}</code> — {t.webhooks.eventNames[event]}
              </>
            }
            checked={events.includes(event)}
            onChange={(checked) =>
              setEvents((previous) =>
                checked ? [...previous, event] : previous.filter((item) => item !== event),
              )
            }
          />
        ))}
        <FieldErrors errors={eventErrors} />
      </fieldset>
      <Checkbox
        label={t.webhooks.enabledLabel}
        checked={enabled}
        errors={submission.errors.enabled}
        onChange={setEnabled}
      />
    </FormDialog>
  );
}
