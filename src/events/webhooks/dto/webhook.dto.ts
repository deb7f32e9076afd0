import { SearchableListQueryDto, ListQueryDto } from '../../../common/list-query.dto';
import {
  FormBool,
  FormEnumList,
  FormString,
  FormUrl,
  OptionalNotNull,
  Required,
} from '../../../common/validation';
import { EVENT_TYPES, type EventType } from '../../outbox/event';

const URL_DOC =
  'Where deliveries are posted. It must resolve to public addresses only, checked now and at every delivery ' +
  '(unless the operator allows private ones).';
const EVENTS_DOC = 'The events it takes: one or more.';

export class CreateWebhookDto {
  @Required()
  @FormString({ max: 255, description: 'To recognise the webhook by.' })
  name!: string;

  @Required()
  @FormUrl({ description: URL_DOC })
  url!: string;

  @Required()
  @FormEnumList(EVENT_TYPES, 'EventType', { min: 1, max: EVENT_TYPES.length, description: EVENTS_DOC })
  events!: EventType[];

  @OptionalNotNull()
  @FormBool({ description: '0: nothing is delivered until it is 1 again; 1 when absent.' })
  enabled?: boolean;
}

/** PUT and PATCH alike: what is absent stays as it is. Enabling it again forgets its failures. */
export class UpdateWebhookDto {
  @OptionalNotNull()
  @FormString({ max: 255 })
  name?: string;

  @OptionalNotNull()
  @FormUrl({ description: URL_DOC })
  url?: string;

  @OptionalNotNull()
  @FormEnumList(EVENT_TYPES, 'EventType', { min: 1, max: EVENT_TYPES.length, description: EVENTS_DOC })
  events?: EventType[];

  @OptionalNotNull()
  @FormBool({ description: '0: nothing is delivered until it is 1 again, which also forgets its failures.' })
  enabled?: boolean;
}

export const WEBHOOK_SEARCH_BY = ['name', 'url'] as const;
export const WEBHOOK_SORT_BY = ['id', 'name'] as const;

export class WebhookListQueryDto extends SearchableListQueryDto(
  'Webhook',
  WEBHOOK_SEARCH_BY,
  WEBHOOK_SORT_BY,
) {}

/** A delivery log's page: newest first, always. */
export class DeliveryListQueryDto extends ListQueryDto {}

/** The document's example bodies. */
export const WEBHOOK_EXAMPLES = {
  create: {
    name: 'CRM',
    url: 'https://crm.example.com/hooks/shortlink',
    events: ['link.created', 'link.updated'],
  },
  update: { events: ['link.created', 'link.updated', 'link.deleted'], enabled: 1 },
};
