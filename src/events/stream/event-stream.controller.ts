import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { CurrentCaller } from '../../auth/current-account.decorator';
import type { ApiCaller } from '../../auth/owner';
import { ScopedRoute } from '../../auth/resource-route';
import { ApiFileResponse } from '../../common/openapi';
import { EventStreams } from './event-streams';

/** What a stream's answer looks like, as the document shows it. */
const STREAM_EXAMPLE =
  'retry: 3000\n\n' +
  'id: evt_2d1f0c8e6b4a4f0e9d7c5b3a19e8f6d4\nevent: link.deleted\n' +
  'data: {"id":"evt_2d1f0c8e6b4a4f0e9d7c5b3a19e8f6d4","type":"link.deleted","created_at":"2026-11-21T10:05:00.000000Z","data":{"id":5}}\n\n' +
  ': keep-alive\n\n';

@ApiTags('events')
@Controller('api/v1/events')
export class EventStreamController {
  constructor(private readonly streams: EventStreams) {}

  @ScopedRoute('links.read', Get('stream'), {
    operationId: 'streamEvents',
    summary: 'Stream the events of the links the key may read',
    description:
      'Server-sent events (`text/event-stream`), held open: one per event of the webhooks (`link.created`, ' +
      '`link.updated`, `link.deleted`, `link.clicked`, `link.limit_reached`, `link.broken`, `link.recovered`) ' +
      'about a link the key or session may read, each as `id:` (the event id), `event:` (its type) and `data:` ' +
      '(the event JSON, as a webhook gets it), and a `: keep-alive` comment at least every 30 s. A key restricted ' +
      'to spaces gets the events of their links alone (a click event, the clicks of their links alone). ' +
      '`Last-Event-ID` resumes after that event for at least an hour after the client lost the stream; an older or ' +
      'unknown id starts at the present. At most `EVENT_STREAMS_PER_ACCOUNT` streams per account (429 past it) ' +
      'and `EVENT_STREAMS_PER_INSTANCE` per instance (503 with `Retry-After` past it).',
  })
  @ApiHeader({
    name: 'Last-Event-ID',
    required: false,
    description: 'The id of the last event the client received: the stream resumes after it.',
    schema: { type: 'string', example: 'evt_2d1f0c8e6b4a4f0e9d7c5b3a19e8f6d4' },
  })
  @ApiFileResponse('The events as they happen, until the client goes.', {
    'text/event-stream': { type: 'string', example: STREAM_EXAMPLE },
  })
  async stream(
    @CurrentCaller() caller: ApiCaller,
    @Req() request: Request,
    @Res() response: Response,
  ): Promise<void> {
    await this.streams.start(caller, request, response);
  }
}
