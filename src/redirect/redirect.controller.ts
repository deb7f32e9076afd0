import { Controller, Get, Header, Param, Post, Query, Req, Res, UseGuards } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Public } from '../auth/public.decorator';
import { ResourceNotFoundException } from '../common/exceptions';
import { sendQr } from '../qr/qr-code';
import { QrQueryDto } from '../qr/qr-query.dto';
import { PIXELS_SCRIPT_PATH } from './pixel-markup';
import { StatsPageService } from './stats-page.service';
import { VisitorRateLimitGuard } from './visitor-rate-limit.guard';
import { VisitsService } from './visits.service';

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
  async qr(
    @Req() request: Request,
    @Res() response: Response,
    @Param('alias') alias: string,
    @Query() query: QrQueryDto,
  ): Promise<void> {
    const shortUrl = await this.visits.shortUrlOf(request, alias);
    if (shortUrl === null) this.visits.notFound(response);
    else await sendQr(response, shortUrl, query);
  }

  @Get(':alias/stats')
  stats(@Req() request: Request, @Res() response: Response, @Param('alias') alias: string): Promise<void> {
    return this.statsPages.show(request, response, alias);
  }

  @Post(':alias/stats')
  statsPassword(
    @Req() request: Request,
    @Res() response: Response,
    @Param('alias') alias: string,
  ): Promise<void> {
    return this.statsPages.submitPassword(request, response, alias);
  }

  /** Any other address a browser may open: the visitor's 404 page, not the API's JSON. */
  @Get('*path')
  unknown(@Req() request: Request, @Res() response: Response): void {
    if (request.path === '/api' || request.path.startsWith('/api/')) throw new ResourceNotFoundException();
    this.visits.notFound(response);
  }
}
