import { HttpStatus, Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import type { Request, Response } from 'express';
import { randomUUID } from 'node:crypto';
import { Gauge } from 'prom-client';
import type { ApiCaller } from '../../auth/owner';
import { RequestAccount } from '../../auth/request-account';
import { ERROR_MESSAGES } from '../../common/envelope';
import { RefusalException, TooManyAttemptsException } from '../../common/exceptions';
import { eventsConfig, type EventsConfig } from '../../config/app-config';
import { ChangeFeed, FRESH_MS } from '../../database/change-feed';
import { MetricsService } from '../../metrics/metrics.service';
import { STREAM_REFRESH_MS } from '../outbox/event';
import { STREAMS_CHANGED } from '../outbox/event-interest';
import { EventStreamRepository } from './event-stream.repository';
import {
  EVENT_STREAM_TIMING,
  EventStreamReader,
  type EventStreamTiming,
  type StreamTarget,
} from './event-stream-reader';
import { KEEP_ALIVE, retryFrame } from './sse';
import { laterOf, pastTransactionsBefore } from './stream-position';

/** How long a client waits before it reconnects after losing its stream (the `retry:` field). */
export const RECONNECT_MS = 3000;
/** The wait a 429 asks for when the account has all its streams open: about when a crashed one stops counting. */
const ACCOUNT_FULL_RETRY_MS = 30_000;
/** The wait a 503 asks for when the instance has all its streams open: another instance may have room. */
const INSTANCE_FULL_RETRY_S = 5;
/**
 * What one stream may have written and not yet taken by its client, at most: some sixteen click events of a
 * thousand clicks. A client this far behind is cut, and catches up with `Last-Event-ID` when it reconnects.
 */
const MAX_UNSENT_BYTES = 4 * 1024 * 1024;
/** What `Last-Event-ID` may name: an event id (`evt_` and 32 hex digits); anything else is ignored. */
const EVENT_ID = /^evt_[0-9a-f]{32}$/;

/** The head of a stream's answer. */
function writeHead(response: Response): void {
  response.status(200);
  // Set on the raw answer: Express would add a charset to the type, which the format has no use for (UTF-8).
  response.setHeader('Content-Type', 'text/event-stream');
  response.setHeader('Cache-Control', 'no-cache');
  // Proxies (nginx) pass each event on at once rather than buffer the answer.
  response.setHeader('X-Accel-Buffering', 'no');
}

/** The instance has as many streams open as it may: another instance may take the client. */
export class StreamsFullException extends RefusalException {
  constructor(retryAfterSeconds: number) {
    super(ERROR_MESSAGES[HttpStatus.SERVICE_UNAVAILABLE]!, HttpStatus.SERVICE_UNAVAILABLE);
    this.headers['Retry-After'] = String(retryAfterSeconds);
  }
}

/** An open stream: its client's request and answer, and what the reader feeds it. */
interface OpenStream {
  id: string;
  request: Request;
  response: Response;
  target: StreamTarget;
  heartbeat: NodeJS.Timeout;
  closed: boolean;
}

/**
 * The event streams of this instance (`GET /api/v1/events/stream`, contract §14): each a server-sent events answer
 * held open, fed by the one {@link EventStreamReader}. A stream is opened within two bounds, the account's over
 * every instance (`EVENT_STREAMS_PER_ACCOUNT`, its rows in `event_streams`) and the instance's
 * (`EVENT_STREAMS_PER_INSTANCE`), each refused before anything is sent. While it is open, and for the hour after,
 * its account's events are written to the outbox (the outbox's rule reads its row), so that a client that
 * reconnects with `Last-Event-ID` gets what it missed. Every `heartbeatMs` a comment keeps it alive and its caller
 * is looked up again: a revoked or expired key, an ended session, a lost `links.read` end it; a changed restriction
 * applies from then on. A stop (SIGTERM, SIGINT, or the application closing) ends every stream at once, so that
 * none holds the drain of requests in flight.
 */
@Injectable()
export class EventStreams implements BeforeApplicationShutdown {
  private readonly logger = new Logger(EventStreams.name);
  private readonly open = new Set<OpenStream>();
  /** Opens under way: they count against the instance's bound before they are open. */
  private opening = 0;
  private closing = false;
  private refresher: NodeJS.Timeout | null = null;
  /** Rows being closed: a stop waits for them, so that they stop counting against the account's bound. */
  private readonly closings = new Set<Promise<void>>();
  /** Opens waiting to hear that every instance was told their account's events are now held. */
  private readonly hearing = new Set<() => void>();
  private readonly gauge: Gauge;
  private readonly stop = () => this.endAll();

  constructor(
    private readonly repository: EventStreamRepository,
    private readonly reader: EventStreamReader,
    private readonly requestAccount: RequestAccount,
    private readonly feed: ChangeFeed,
    @Inject(eventsConfig.KEY) private readonly config: EventsConfig,
    @Inject(EVENT_STREAM_TIMING) private readonly timing: EventStreamTiming,
    metrics: MetricsService,
  ) {
    feed.subscribe((change) => {
      if (change !== STREAMS_CHANGED) return;
      for (const heard of this.hearing) heard();
    });
    this.gauge = new Gauge({
      name: 'shortlink_event_streams',
      help: 'Event streams (GET /api/v1/events/stream) open on this instance.',
      registers: [metrics.registry],
    });
  }

  /**
   * Opens the caller's stream on `response`, or refuses it before anything is sent: 503 while the instance stops
   * or has `EVENT_STREAMS_PER_INSTANCE` open, 429 when the account has `EVENT_STREAMS_PER_ACCOUNT` open. Returns once
   * the stream has started; it runs until its client goes, its caller may no longer read, or the instance stops.
   */
  async start(caller: ApiCaller, request: Request, response: Response): Promise<void> {
    // Express answers HEAD with the GET route: the head alone, and no stream held open for a body never sent.
    if (request.method === 'HEAD') {
      writeHead(response);
      response.end();
      return;
    }
    if (this.closing) throw new StreamsFullException(1);
    if (this.open.size + this.opening >= this.config.eventStreamsPerInstance) {
      throw new StreamsFullException(INSTANCE_FULL_RETRY_S);
    }
    this.opening += 1;
    try {
      await this.begin(caller, request, response);
    } finally {
      this.opening -= 1;
    }
  }

  private async begin(caller: ApiCaller, request: Request, response: Response): Promise<void> {
    const id = randomUUID();
    const accountId = caller.account.id;
    // Listening before the open commits: its notice may come back before the commit's answer does.
    const notice = this.notice();
    let target: StreamTarget;
    try {
      const { opened, started } = await this.repository.open(
        id,
        accountId,
        this.config.eventStreamsPerAccount,
      );
      if (!opened) throw new TooManyAttemptsException(ACCOUNT_FULL_RETRY_MS);
      try {
        // The other instances write the account's events once they hear of it: their changes from then on are
        // this stream's. The feed's second bounds the wait (without a feed, nothing is kept in memory to wait for).
        if (started && this.feed.listening) await notice.heard;
        target = await this.targetOf(caller, request);
        if (this.closing) throw new StreamsFullException(1);
      } catch (error) {
        await this.repository.close([id]).catch(() => undefined);
        throw error;
      }
    } finally {
      notice.done();
    }
    writeHead(response);
    response.flushHeaders();
    // Each event is a small write that must leave at once, not wait for more to fill a packet.
    request.socket.setNoDelay(true);
    response.write(retryFrame(RECONNECT_MS));

    const stream: OpenStream = {
      id,
      request,
      response,
      target,
      closed: false,
      heartbeat: setInterval(() => void this.beat(stream), this.timing.heartbeatMs),
    };
    stream.heartbeat.unref();
    target.send = (frame) => this.send(stream, frame);
    this.open.add(stream);
    this.gauge.set(this.open.size);
    if (this.open.size === 1) this.watch();
    response.on('close', () => this.finish(stream));
    // A client gone while the stream was being opened has closed already: no close is coming.
    if (response.destroyed || request.socket.destroyed) {
      this.finish(stream);
      return;
    }
    this.reader.add(target);
  }

  /**
   * Where the stream starts: after the event `Last-Event-ID` names, when the account's events since are all held;
   * otherwise now, past every event already committed.
   */
  private async targetOf(caller: ApiCaller, request: Request): Promise<StreamTarget> {
    const accountId = caller.account.id;
    const base = { accountId, spaceIds: caller.owner.spaceIds, send: () => undefined };
    const last = request.headers['last-event-id'];
    if (typeof last === 'string' && EVENT_ID.test(last.trim())) {
      const position = await this.repository.resumableAt(accountId, last.trim());
      if (position !== null) return { ...base, position, skip: null };
    }
    const { horizon, seen } = await this.repository.start(accountId);
    const position = pastTransactionsBefore(horizon);
    if (seen.length === 0) return { ...base, position, skip: null };
    const until = seen.reduce(laterOf);
    return { ...base, position, skip: { ids: new Set(seen.map((event) => event.id)), until } };
  }

  /**
   * The next notice that an account's events are now held, as the feed brings it back (every instance hears it
   * then), or the feed's second, whichever comes first.
   */
  private notice(): { heard: Promise<void>; done: () => void } {
    let heard: () => void = () => undefined;
    const promise = new Promise<void>((resolve) => (heard = resolve));
    const timer = setTimeout(heard, FRESH_MS);
    this.hearing.add(heard);
    return {
      heard: promise,
      done: () => {
        clearTimeout(timer);
        this.hearing.delete(heard);
      },
    };
  }

  /** Writes a frame, unless the client has let too much pile up: then the stream is cut. */
  private send(stream: OpenStream, frame: string): void {
    if (stream.closed) return;
    if (stream.response.writableLength > MAX_UNSENT_BYTES) {
      this.logger.debug(`Event stream of account ${stream.target.accountId} cut: its client fell behind`);
      stream.response.destroy();
      return;
    }
    stream.response.write(frame);
  }

  /** A comment, then the caller looked up again: one that may no longer read the account's links ends it. */
  private async beat(stream: OpenStream): Promise<void> {
    if (stream.closed) return;
    stream.response.write(KEEP_ALIVE);
    let caller: ApiCaller | null;
    try {
      caller = await this.requestAccount.fresh(stream.request.headers);
    } catch {
      // The database is away: the stream stays, and so does its caller until it can be asked again.
      return;
    }
    if (
      caller === null ||
      caller.account.id !== stream.target.accountId ||
      !caller.granted.has('links.read')
    ) {
      this.finish(stream);
      return;
    }
    stream.target.spaceIds = caller.owner.spaceIds;
  }

  /** Ends a stream once: its answer, its place in the reader, and its row (which then holds events for the hour). */
  private finish(stream: OpenStream): void {
    if (stream.closed) return;
    stream.closed = true;
    clearInterval(stream.heartbeat);
    this.reader.remove(stream.target);
    this.open.delete(stream);
    this.gauge.set(this.open.size);
    if (!stream.response.writableEnded) stream.response.end();
    const closing = this.repository
      .close([stream.id])
      .catch((error: unknown) =>
        this.logger.warn(`An event stream's row stays open until its lease: ${(error as Error).message}`),
      )
      .finally(() => this.closings.delete(closing));
    this.closings.add(closing);
    if (this.open.size === 0) this.unwatch();
  }

  /**
   * While streams are open: their rows refreshed, so that they keep counting and holding events; and a stop
   * signal ends them. The process's own handler (main.ts) answers the requests in flight before it closes the
   * application, and an open stream is one: a process without such a handler exits on the signal anyway.
   */
  private watch(): void {
    this.refresher = setInterval(() => {
      this.repository
        .refresh([...this.open].map((stream) => stream.id))
        .catch((error: unknown) =>
          this.logger.warn(`Event streams not refreshed: ${(error as Error).message}`),
        );
    }, STREAM_REFRESH_MS);
    this.refresher.unref();
    for (const signal of ['SIGTERM', 'SIGINT'] as const) {
      if (process.listenerCount(signal) > 0) process.on(signal, this.stop);
    }
  }

  private unwatch(): void {
    if (this.refresher !== null) clearInterval(this.refresher);
    this.refresher = null;
    process.off('SIGTERM', this.stop);
    process.off('SIGINT', this.stop);
  }

  /** Ends every stream, and refuses new ones from now on: the instance is stopping. */
  private endAll(): void {
    this.closing = true;
    for (const stream of [...this.open]) this.finish(stream);
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.endAll();
    this.unwatch();
    while (this.closings.size > 0) await Promise.allSettled([...this.closings]);
  }
}
