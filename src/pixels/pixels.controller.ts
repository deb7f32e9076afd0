import { Body, Controller, Param, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Account } from '../auth/account.entity';
import { CurrentAccount } from '../auth/current-account.decorator';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { paginatedEnvelope } from '../common/pagination';
import { PixelResponse } from './pixel.mapper';
import { PixelListQueryDto } from './dto/pixel-list-query.dto';
import { CreatePixelDto, PIXEL_EXAMPLES, UpdatePixelDto } from './dto/pixel.dto';
import { PixelsService } from './pixels.service';
import { resourceRoutes } from '../auth/resource-route';

const routes = resourceRoutes({
  scopes: 'pixels',
  id: 'Pixel',
  one: 'a pixel',
  many: 'pixels',
  response: PixelResponse,
  object: 'pixel',
  examples: PIXEL_EXAMPLES,
});

@ApiTags('pixels')
@Controller('api/v1/pixels')
export class PixelsController {
  constructor(private readonly pixels: PixelsService) {}

  @routes.list()
  async list(@CurrentAccount() account: Account, @Query() query: PixelListQueryDto, @Req() request: Request) {
    return paginatedEnvelope(request, query.pageRequest(), await this.pixels.list(account.id, query));
  }

  @routes.show()
  async show(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.pixels.show(account.id, id));
  }

  @routes.create()
  async store(@CurrentAccount() account: Account, @Body() dto: CreatePixelDto) {
    return dataEnvelope(await this.pixels.create(account.id, dto));
  }

  @routes.replace()
  replace(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number, @Body() dto: UpdatePixelDto) {
    return this.updated(account, id, dto);
  }

  @routes.patch()
  update(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number, @Body() dto: UpdatePixelDto) {
    return this.updated(account, id, dto);
  }

  /** PUT and PATCH alike: what is absent stays as it is. */
  private async updated(account: Account, id: number, dto: UpdatePixelDto) {
    return dataEnvelope(await this.pixels.update(account.id, id, dto));
  }

  @routes.remove()
  async destroy(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    await this.pixels.remove(account.id, id);
    return deletedEnvelope(id, 'pixel');
  }
}
