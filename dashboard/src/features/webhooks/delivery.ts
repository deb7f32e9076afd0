import type { Delivery } from '../../api/types';
import type { Messages } from '../../i18n/en';

/** Whether a delivery reached the endpoint: a 2xx answer, as the API counts it. */
export function delivered(delivery: Pick<Delivery, 'status'>): boolean {
  return delivery.status !== null && delivery.status >= 200 && delivery.status < 300;
}

/** One sentence about a delivery, for the ping's notice. */
export function deliveryOutcome(t: Messages, delivery: Delivery): string {
  return delivered(delivery)
    ? t.webhooks.pingDelivered(delivery.status ?? 0, delivery.duration_ms)
    : t.webhooks.pingFailed(delivery.status === null ? (delivery.error ?? '—') : String(delivery.status));
}
