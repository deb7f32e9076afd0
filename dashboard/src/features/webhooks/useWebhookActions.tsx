import { useState } from 'react';
import { api, call } from '../../api/client';
import { describeError } from '../../api/describe';
import type { Webhook } from '../../api/types';
import { ConfirmDialog } from '../../components/ConfirmDialog';
import { useNotify } from '../../components/Notifications';
import type { ShownSecret } from '../../hooks/useResourceList';
import { useI18n } from '../../i18n/I18nProvider';
import { deliveryOutcome } from './delivery';

/**
 * A webhook's own actions beside Edit and Delete: a test delivery (its failure said above the list) and a new
 * signing secret, asked first and then shown once.
 */
export function useWebhookActions(reload: () => void, showSecret: (secret: ShownSecret) => void) {
  const { t } = useI18n();
  const notify = useNotify();
  const [rotating, setRotating] = useState<Webhook | null>(null);
  const [actionError, setActionError] = useState<string | null>(null);
  const path = (webhook: Webhook) => ({ params: { path: { id: webhook.id } } });

  const rotate = async (webhook: Webhook) => {
    const rotated = await call(api.POST('/api/v1/webhooks/{id}/secret', path(webhook)));
    setRotating(null);
    showSecret({ name: webhook.name, secret: rotated.data.secret });
  };

  const ping = async (webhook: Webhook) => {
    setActionError(null);
    try {
      const sent = await call(api.POST('/api/v1/webhooks/{id}/test', path(webhook)));
      notify(deliveryOutcome(t, sent.data));
      reload();
    } catch (error) {
      setActionError(describeError(t, error));
    }
  };

  const notice = actionError !== null && (
    <p role="alert" className="error-text">
      {actionError}
    </p>
  );
  const dialog = rotating !== null && (
    <ConfirmDialog
      title={t.webhooks.rotateTitle}
      confirmLabel={t.webhooks.rotate}
      onConfirm={() => rotate(rotating)}
      onClose={() => setRotating(null)}
    >
      <p>{t.webhooks.rotateConfirm(rotating.name)}</p>
    </ConfirmDialog>
  );
  return { ping: (webhook: Webhook) => void ping(webhook), rotate: setRotating, notice, dialog };
}
