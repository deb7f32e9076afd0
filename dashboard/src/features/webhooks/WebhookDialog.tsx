import { useState } from 'react';
import { api, call } from '../../api/client';
import { EventTypeValues } from '../../api/enums';
import { errorsUnder } from '../../api/errors';
import type { EventType, Webhook } from '../../api/types';
import { Checkbox, Field, FieldErrors, NameField } from '../../components/Field';
import { editOrNewTitle, FormDialog, useDialogForm } from '../../components/FormDialog';
import { UrlInput, withScheme } from '../../components/UrlInput';
import { useI18n } from '../../i18n/I18nProvider';

const WEBHOOK_FIELDS = ['name', 'url', 'events', 'enabled'] as const;

interface WebhookDialogProps {
  webhook: Webhook | null;
  onClose: () => void;
  /** `secret` is the signing secret, given once on create. */
  onSaved: (saved: Webhook, secret?: string) => void;
}

export function WebhookDialog({ webhook, onClose, onSaved }: WebhookDialogProps) {
  const { t } = useI18n();
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
  const form = useDialogForm(WEBHOOK_FIELDS, save);

  return (
    <FormDialog title={editOrNewTitle(t.webhooks, webhook)} form={form} onClose={onClose}>
      <NameField field={form.field('name')} value={name} onChange={setName} />
      <Field label={t.webhooks.url} {...form.field('url')} hint={t.webhooks.urlHint}>
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
        <FieldErrors errors={errorsUnder(form.errors, 'events')} />
      </fieldset>
      <Checkbox
        label={t.webhooks.enabledLabel}
        checked={enabled}
        errors={form.errors.enabled}
        onChange={setEnabled}
      />
    </FormDialog>
  );
}
