import { ApiProperty } from '@nestjs/swagger';
import { ApiInteger, RESPONSE_DATE_EXAMPLE } from '../../common/openapi';
import { LinkResponse } from '../../links/link.mapper';

/**
 * The events webhooks and streams carry (contract §10), as schemas of the OpenAPI document's components: what a
 * receiver gets in the body of a delivery, in a stream entry's `event` field, or in a message.
 */

const EVENT_ID = {
  type: 'string',
  example: 'evt_2d1f0c8e6b4a4f0e9d7c5b3a19e8f6d4',
  description: 'The same on every retry and sink.',
} as const;
const CREATED_AT = { type: 'string', format: 'date-time', example: RESPONSE_DATE_EXAMPLE } as const;

/**
 * `link.created`, `link.updated`, `link.limit_reached`, `link.broken`, `link.recovered`: the link as
 * `GET /api/v1/links/{id}` shows it.
 */
export class LinkEvent {
  @ApiProperty(EVENT_ID)
  id!: string;

  @ApiProperty({
    type: 'string',
    enum: ['link.created', 'link.updated', 'link.limit_reached', 'link.broken', 'link.recovered'],
  })
  type!: string;

  @ApiProperty(CREATED_AT)
  created_at!: string;

  @ApiProperty({
    type: LinkResponse,
    description:
      'The link when the change was committed; for `link.limit_reached`, when its last allowed click was counted; ' +
      'for `link.broken` and `link.recovered`, when its event was sent.',
  })
  data!: LinkResponse;
}

class DeletedLink {
  @ApiInteger({ example: 5 })
  id!: number;
}

/** `link.deleted`. */
export class LinkDeletedEvent {
  @ApiProperty(EVENT_ID)
  id!: string;

  @ApiProperty({ type: 'string', enum: ['link.deleted'] })
  type!: string;

  @ApiProperty(CREATED_AT)
  created_at!: string;

  @ApiProperty({ type: DeletedLink })
  data!: DeletedLink;
}

/** One click of a `link.clicked` event: what the click export shows of it. */
export class ClickedClick {
  @ApiInteger({ example: 5 })
  link_id!: number;

  @ApiProperty({
    type: 'string',
    nullable: true,
    example: 'spring-sale',
    description: 'Null once the link is deleted.',
  })
  alias!: string | null;

  @ApiProperty(CREATED_AT)
  created_at!: string;

  @ApiProperty({ type: 'string', nullable: true, example: 'news.example.com' })
  referrer!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'GB:United Kingdom' })
  country!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'London' })
  city!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'EU' })
  continent!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'Safari' })
  browser!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'macOS' })
  operating_system!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'desktop' })
  device!: string | null;

  @ApiProperty({ type: 'string', nullable: true, example: 'en' })
  language!: string | null;
}

class Clicks {
  @ApiProperty({ type: [ClickedClick], maxItems: 1000 })
  clicks!: ClickedClick[];
}

/** `link.clicked`: up to 1,000 clicks of one account, gathered for at most a second. */
export class LinkClickedEvent {
  @ApiProperty(EVENT_ID)
  id!: string;

  @ApiProperty({ type: 'string', enum: ['link.clicked'] })
  type!: string;

  @ApiProperty(CREATED_AT)
  created_at!: string;

  @ApiProperty({ type: Clicks })
  data!: Clicks;
}

/** Every event schema, for the document's components. */
export const EVENT_SCHEMAS = [LinkEvent, LinkDeletedEvent, LinkClickedEvent, ClickedClick];
