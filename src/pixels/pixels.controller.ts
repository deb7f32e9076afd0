import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Account } from '../auth/account.entity';
import { CurrentAccount } from '../auth/current-account.decorator';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { ApiDataResponse, ApiDeletedResponse, ApiEndpoint, ApiListResponse } from '../common/openapi';
import { paginatedEnvelope } from '../common/pagination';
import { PixelResponse } from './pixel.mapper';
import { PixelListQueryDto } from './dto/pixel-list-query.dto';
import { CreatePixelDto, UpdatePixelDto } from './dto/pixel.dto';
import { PixelsService } from './pixels.service';
import { RequiresScope } from '../auth/requires-scope.decorator';

@ApiTags('pixels')
@Controller('api/v1/pixels')
export class PixelsController {
  constructor(private readonly pixels: PixelsService) {}

  @ApiEndpoint({ operationId: 'listPixels', summary: 'List pixels', errors: [422] })
  @ApiListResponse(PixelResponse)
  @Get()
  @RequiresScope('pixels.read')
  async list(@CurrentAccount() account: Account, @Query() query: PixelListQueryDto, @Req() request: Request) {
    return paginatedEnvelope(request, query.pageRequest(), await this.pixels.list(account.id, query));
  }

  @ApiEndpoint({ operationId: 'showPixel', summary: 'Show a pixel', errors: [404] })
  @ApiDataResponse(PixelResponse)
  @Get(':id')
  @RequiresScope('pixels.read')
  async show(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.pixels.show(account.id, id));
  }

  @ApiEndpoint({ operationId: 'createPixel', summary: 'Create a pixel', body: true })
  @ApiDataResponse(PixelResponse, { status: 201 })
  @Post()
  @RequiresScope('pixels.write')
  async store(@CurrentAccount() account: Account, @Body() dto: CreatePixelDto) {
    return dataEnvelope(await this.pixels.create(account.id, dto));
  }

  @ApiEndpoint({
    operationId: 'updatePixel',
    summary: 'Update a pixel',
    description: 'Fields that are absent stay as they are; PATCH does the same.',
    body: true,
    errors: [404],
  })
  @ApiDataResponse(PixelResponse)
  @Put(':id')
  @RequiresScope('pixels.write')
  replace(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number, @Body() dto: UpdatePixelDto) {
    return this.updated(account, id, dto);
  }

  @ApiEndpoint({
    operationId: 'patchPixel',
    summary: 'Update a pixel (PATCH)',
    description: 'The same as PUT: fields that are absent stay as they are.',
    body: true,
    errors: [404],
  })
  @ApiDataResponse(PixelResponse)
  @Patch(':id')
  @RequiresScope('pixels.write')
  update(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number, @Body() dto: UpdatePixelDto) {
    return this.updated(account, id, dto);
  }

  /** PUT and PATCH alike: what is absent stays as it is. */
  private async updated(account: Account, id: number, dto: UpdatePixelDto) {
    return dataEnvelope(await this.pixels.update(account.id, id, dto));
  }

  @ApiEndpoint({ operationId: 'deletePixel', summary: 'Delete a pixel', errors: [404] })
  @ApiDeletedResponse('pixel')
  @Delete(':id')
  @RequiresScope('pixels.write')
  @HttpCode(200)
  async destroy(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    await this.pixels.remove(account.id, id);
    return deletedEnvelope(id, 'pixel');
  }
}
