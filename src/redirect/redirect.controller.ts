import { Controller, Get, Header, Param, Post, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Public } from '../auth/public.decorator';
import { dataEnvelope } from '../common/envelope';
import { ResourceNotFoundException, ValidationFailedException } from '../common/exceptions';
import { PUBLIC_QR_MAX_SIZE, publicQrQuery, QrCodes } from '../qr/qr-code';
import { QR_MIN_SIZE, QrQueryDto } from '../qr/qr-query.dto';
import { Pages } from './pages';
import { PIXELS_SCRIPT_PATH } from './pixel-markup';
import { chosenRange, StatsPageService, statsPath, type StatsVisit } from './stats-page.service';
import { asksForHtml, wantsJson } from './visitor-error-pages';
import { VisitorRateLimitGuard } from './visitor-rate-limit.guard';
import { views } from './views';
import { VisitsService, type ResolvedLink } from './visits.service';

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

const PIXELS_SCRIPT = readFileSync(join(__dirname, 'assets', 'pixels.js'), 'utf8');

/**
 * What visitors open: no API key and not the API's rate limit, but a per-address limit of their own that no
 * person meets (password attempts have a stricter one).
 */
@ApiExcludeController()
@Public()
@SkipThrottle()
@UseGuards(VisitorRateLimitGuard)
@Controller()
export class RedirectController {
  constructor(
    private readonly visits: VisitsService,
    private readonly statsPages: StatsPageService,
    private readonly pages: Pages,
    private readonly qrCodes: QrCodes,
  ) {}

  @Get(PIXELS_SCRIPT_PATH)
  @Header('Content-Type', 'text/javascript; charset=utf-8')
  @Header('Cache-Control', 'public, max-age=86400')
  pixelsScript(): string {
    return PIXELS_SCRIPT;
  }

  @Get()
  root(@Req() request: Request, @Res() response: Response): Promise<void> {
    return this.visits.root(request, response);
  }

  @Get(':alias')
  open(@Req() request: Request, @Res() response: Response, @Param('alias') alias: string): Promise<void> {
    return this.visits.open(request, response, alias);
  }

  @Get(':alias/\\+')
  preview(@Req() request: Request, @Res() response: Response, @Param('alias') alias: string): Promise<void> {
    return this.visits.preview(request, response, alias);
  }

  /** The address a form posted to, opened again (a reload from the address bar): the link, as `GET /{alias}`. */
  @Get([':alias/password', ':alias/sensitive-consent'])
  reopen(@Req() request: Request, @Res() response: Response, @Param('alias') alias: string): Promise<void> {
    return this.visits.open(request, response, alias);
  }

  @Post(':alias/password')
  password(@Req() request: Request, @Res() response: Response, @Param('alias') alias: string): Promise<void> {
    return this.visits.submitPassword(request, response, alias);
  }

  @Post(':alias/sensitive-consent')
  consent(@Req() request: Request, @Res() response: Response, @Param('alias') alias: string): Promise<void> {
    return this.visits.submitConsent(request, response, alias);
  }

  /** The QR code of a short link that can be visited (as its stats page, a disabled link has none). */
  @Get(':alias/qr')
  async qr(@Req() request: Request, @Res() response: Response, @Param('alias') alias: string): Promise<void> {
    let query: QrQueryDto;
    try {
      query = await publicQrQuery(request.query);
    } catch (error) {
      // A person who opened the address is shown a page in their language; an image tag or a script, the 422.
      if (!(error instanceof ValidationFailedException) || !asksForHtml(request)) throw error;
      const t = this.pages.translator(request);
      const refused = {
        fields: Object.keys(error.fields),
        minSize: QR_MIN_SIZE,
        maxSize: PUBLIC_QR_MAX_SIZE,
      };
      this.pages.send(response, 422, t, views.qrRefused(t, refused));
      return;
    }
    const shortUrl = await this.visits.shortUrlOf(request, alias);
    if (shortUrl === null) this.visits.notFound(response);
    else await this.qrCodes.send(response, shortUrl, query);
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
    const t = this.pages.translator(request);
    this.pages.send(response, 200, t, views.stats(t, page));
  }

  /** Any other address a browser may open: the visitor's 404 page, not the API's JSON. */
  @Get('*path')
  unknown(@Req() request: Request, @Res() response: Response): void {
    if (request.path === '/api' || request.path.startsWith('/api/')) throw new ResourceNotFoundException();
    this.visits.notFound(response);
  }
}
