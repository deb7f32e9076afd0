import { Controller, Get, Header, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { Public } from '../auth/public.decorator';
import { dataEnvelope } from '../common/envelope';
import { ResourceNotFoundException, ValidationFailedException } from '../common/exceptions';
import { PUBLIC_QR_MAX_SIZE, publicQrQuery, QrCodes } from '../qr/qr-code';
import { QR_MIN_SIZE } from '../qr/qr-query.dto';
import type { ResolvedLink } from '../links/resolved-link';
import { chosenRange, StatsPageService, statsPath, type StatsVisit } from './stats-page/stats-page.service';
import { statsPage } from './stats-page/stats-view';
import { VisitorRateLimitGuard } from './limits/visitor-rate-limit.guard';
import { Pages } from './pages/pages';
import { PIXELS_SCRIPT, PIXELS_SCRIPT_PATH } from './pages/pixel-markup';
import { asksForHtml, wantsJson } from './pages/visitor-error-pages';
import { views } from './pages/views';
import { visitorQueryFits } from '../common/query-string';
import { OutcomeWriter } from './outcome-writer';
import type { VisitOutcome, VisitRequest } from './visit';
import { APP_FILE_PATHS, VisitPipeline, type Resolved } from './visit-pipeline';

/** What the stats page reads of a request. */
function statsVisit(request: Request): StatsVisit {
  return {
    host: request.headers.host,
    authorization: request.headers.authorization,
    cookie: request.headers.cookie,
    ip: request.ip,
    secure: request.secure,
    range: chosenRange(request.query.range),
  };
}

/** A visit as the pipeline reads it, from an Express request: a form's fields on a POST, the address on a GET. */
function visitOf(request: Request): VisitRequest {
  const base = { method: request.method, headers: request.headers, address: request.ip ?? '' };
  if (request.method !== 'POST') {
    const query = request.originalUrl.split('?')[1] ?? '';
    return { ...base, query, referrer: request.headers.referer ?? '', form: {} };
  }
  const form = (request.body ?? {}) as Record<string, unknown>;
  return {
    ...base,
    // The forms carry what a GET let through; a longer one was not written by this service and is dropped.
    query: typeof form.q === 'string' && visitorQueryFits(form.q) ? form.q : '',
    referrer: typeof form.ref === 'string' ? form.ref.slice(0, 2048) : '',
    form,
  };
}

/**
 * What visitors open: no API key and not the API's rate limit, but a per-address limit of their own that no
 * person meets (password attempts have a stricter one).
 */
@ApiExcludeController()
@Public()
@SkipThrottle()
@UseGuards(VisitorRateLimitGuard)
@Controller()
export class VisitorController {
  constructor(
    private readonly pipeline: VisitPipeline,
    private readonly writer: OutcomeWriter,
    private readonly statsPages: StatsPageService,
    private readonly pages: Pages,
    private readonly qrCodes: QrCodes,
  ) {}

  /** Resolves the alias on the request's host, takes the step's outcome, and writes it. */
  private async answer(
    request: Request,
    response: Response,
    alias: string,
    step: (found: Resolved) => Promise<VisitOutcome>,
  ): Promise<void> {
    const found = await this.pipeline.resolve(request.headers.host, alias);
    this.writer.write(request, response, await step(found));
  }

  @Get(PIXELS_SCRIPT_PATH)
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=86400')
  // The sandboxed pixels page that loads it has an opaque origin, which helmet's `same-origin` would refuse.
  @Header('Cross-Origin-Resource-Policy', 'cross-origin')
  pixelsScript(): string {
    return PIXELS_SCRIPT;
  }

  /** The domain's files for the apps its links open (contract §13): JSON as it was given, or a 404. */
  @Get(APP_FILE_PATHS)
  async appFile(@Req() request: Request, @Res() response: Response): Promise<void> {
    const file = await this.pipeline.appFile(request.headers.host, request.path);
    if (file === null) throw new ResourceNotFoundException();
    response.status(200).type('application/json').set('Cache-Control', 'public, max-age=3600').send(file);
  }

  @Get()
  async root(@Req() request: Request, @Res() response: Response): Promise<void> {
    this.writer.write(request, response, await this.pipeline.root(request.headers.host));
  }

  @Get(':alias')
  open(@Req() request: Request, @Res() response: Response, @Param('alias') alias: string): Promise<void> {
    return this.answer(request, response, alias, (found) => this.pipeline.open(found, visitOf(request)));
  }

  @Get(':alias/\\+')
  preview(@Req() request: Request, @Res() response: Response, @Param('alias') alias: string): Promise<void> {
    return this.answer(request, response, alias, (found) => this.pipeline.preview(found));
  }

  /** The address a form posted to, opened again (a reload from the address bar): the link, as `GET /{alias}`. */
  @Get([':alias/password', ':alias/sensitive-consent'])
  reopen(@Req() request: Request, @Res() response: Response, @Param('alias') alias: string): Promise<void> {
    return this.open(request, response, alias);
  }

  @Post(':alias/password')
  password(@Req() request: Request, @Res() response: Response, @Param('alias') alias: string): Promise<void> {
    return this.answer(request, response, alias, (found) => this.pipeline.password(found, visitOf(request)));
  }

  @Post(':alias/sensitive-consent')
  consent(@Req() request: Request, @Res() response: Response, @Param('alias') alias: string): Promise<void> {
    return this.answer(request, response, alias, (found) => this.pipeline.consent(found, visitOf(request)));
  }

  /** The QR code of a short link that can be visited (as its stats page, a disabled link has none). */
  @Get(':alias/qr')
  async qr(@Req() request: Request, @Res() response: Response, @Param('alias') alias: string): Promise<void> {
    try {
      const query = await publicQrQuery(request.query);
      const found = await this.pipeline.resolve(request.headers.host, alias);
      const shortUrl = this.pipeline.shortUrlOf(found);
      if (shortUrl === null || found.link === null)
        this.writer.write(request, response, { kind: 'not-found' });
      else await this.qrCodes.send(response, { text: shortUrl, linkId: found.link.id }, query);
    } catch (error) {
      // A person who opened the address is shown a page in their language; an image tag or a script, the 422.
      if (!(error instanceof ValidationFailedException) || !asksForHtml(request)) throw error;
      const refused = {
        fields: Object.keys(error.fields),
        minSize: QR_MIN_SIZE,
        maxSize: PUBLIC_QR_MAX_SIZE,
      };
      this.pages.write(request, response, 422, (t) => views.qrRefused(t, refused));
    }
  }

  /** A refusal (unknown link, private, password) reaches the error filter, which answers as the page or JSON. */
  @Get(':alias/stats')
  async stats(
    @Req() request: Request,
    @Res() response: Response,
    @Param('alias') alias: string,
  ): Promise<void> {
    const visit = statsVisit(request);
    await this.sendStats(request, response, await this.statsPages.open(visit, alias), visit);
  }

  @Post(':alias/stats')
  async statsPassword(
    @Req() request: Request,
    @Res() response: Response,
    @Param('alias') alias: string,
  ): Promise<void> {
    const visit = statsVisit(request);
    const password = (request.body as Record<string, unknown> | undefined)?.password;
    const outcome = await this.statsPages.submitPassword(visit, alias, password);
    if (wantsJson(request)) {
      const found = outcome.unlocked ? outcome.found : await this.statsPages.open(visit, alias);
      await this.sendStats(request, response, found, visit);
      return;
    }
    if (outcome.unlocked) response.append('Set-Cookie', outcome.cookie);
    // The page is then a plain GET: it can be reloaded and bookmarked while the cookie lasts.
    response
      .status(303)
      .set({ Location: statsPath(alias, visit.range), 'Cache-Control': 'private, no-store' })
      .end();
  }

  private async sendStats(
    request: Request,
    response: Response,
    found: ResolvedLink,
    visit: StatsVisit,
  ): Promise<void> {
    if (wantsJson(request)) {
      const stats = await this.statsPages.publicStats(found, visit.range);
      response.set('Cache-Control', 'private, no-store').status(200).json(dataEnvelope(stats));
      return;
    }
    const page = await this.statsPages.dashboard(found, visit.range);
    this.pages.write(request, response, 200, (t) => statsPage(t, page));
  }

  /** Any other address a browser may open: the visitor's 404 page, not the API's JSON. */
  @Get('*path')
  unknown(@Req() request: Request, @Res() response: Response): void {
    if (request.path === '/api' || request.path.startsWith('/api/')) throw new ResourceNotFoundException();
    this.writer.write(request, response, { kind: 'not-found' });
  }
}
