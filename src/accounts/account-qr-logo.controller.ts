import { Controller, Delete, HttpCode, Put, Req } from '@nestjs/common';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import { CurrentOwner } from '../auth/current-account.decorator';
import type { Owner } from '../auth/owner';
import { ScopedRoute } from '../auth/resource-route';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { mediaTypeOf } from '../common/media-type.interceptor';
import { ApiDataResponse, ApiDeletedResponse, IMAGE_BODY_TYPES } from '../common/openapi';
import { QR_LOGO_BODY, QrLogoResponse, toQrLogoResponse } from '../qr/qr-logo.mapper';
import { QrLogos } from '../qr/qr-logos.service';

/**
 * The workspace's logo for its links' QR codes, drawn with `logo=1` where a link has none of its own. Changed with
 * `links.write`, as the links' own logos are, by a key that reaches every space.
 */
@ApiTags('account')
@Controller('api/v1/account/qr-logo')
export class AccountQrLogoController {
  constructor(private readonly qrLogos: QrLogos) {}

  @ScopedRoute('links.write', Put(), {
    operationId: 'putAccountQrLogo',
    summary: 'Upload the workspace’s logo for QR codes',
    description:
      'The body is the image itself, as for a link’s logo: `image/png` (at most 1024 by 1024 pixels) or ' +
      '`image/svg+xml` (without scripts, event handlers, animations, foreign objects or references outside ' +
      'itself), at most 64 KB (413 beyond). Drawn with `logo=1` in the codes of links without a logo of their ' +
      'own. A key restricted to spaces is refused (403).',
    body: IMAGE_BODY_TYPES,
  })
  @ApiBody(QR_LOGO_BODY)
  @ApiDataResponse(QrLogoResponse)
  async put(@CurrentOwner() owner: Owner, @Req() request: Request) {
    const logo = await this.qrLogos.putForWorkspace(owner, request.body, mediaTypeOf(request));
    return dataEnvelope(toQrLogoResponse(logo));
  }

  @ScopedRoute('links.write', Delete(), {
    operationId: 'deleteAccountQrLogo',
    summary: 'Remove the workspace’s logo for QR codes',
    description:
      'Answers the same whether or not the workspace had a logo. A key restricted to spaces is refused (403).',
  })
  @HttpCode(200)
  @ApiDeletedResponse('qr_logo')
  async remove(@CurrentOwner() owner: Owner) {
    await this.qrLogos.removeForWorkspace(owner);
    return deletedEnvelope(owner.accountId, 'qr_logo');
  }
}
