import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req } from '@nestjs/common';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import type { Request } from 'express';
import type { Account } from '../auth/account.entity';
import { CurrentAccount } from '../auth/current-account.decorator';
import { dataEnvelope, deletedEnvelope } from '../common/envelope';
import { IdPipe } from '../common/id.pipe';
import { paginatedEnvelope } from '../common/pagination';
import { PixelListQueryDto } from './dto/pixel-list-query.dto';
import { CreatePixelDto, UpdatePixelDto } from './dto/pixel.dto';
import { PixelsService } from './pixels.service';

@ApiTags('pixels')
@ApiBearerAuth()
@Controller('api/v1/pixels')
export class PixelsController {
  constructor(private readonly pixels: PixelsService) {}

  @Get()
  async list(@CurrentAccount() account: Account, @Query() query: PixelListQueryDto, @Req() request: Request) {
    return paginatedEnvelope(request, query.pageRequest(), await this.pixels.list(account.id, query));
  }

  @Get(':id')
  async show(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    return dataEnvelope(await this.pixels.show(account.id, id));
  }

  @Post()
  async store(@CurrentAccount() account: Account, @Body() dto: CreatePixelDto) {
    return dataEnvelope(await this.pixels.create(account.id, dto));
  }

  @Put(':id')
  async replace(
    @CurrentAccount() account: Account,
    @Param('id', IdPipe) id: number,
    @Body() dto: UpdatePixelDto,
  ) {
    return dataEnvelope(await this.pixels.update(account.id, id, dto));
  }

  @Patch(':id')
  async update(
    @CurrentAccount() account: Account,
    @Param('id', IdPipe) id: number,
    @Body() dto: UpdatePixelDto,
  ) {
    return dataEnvelope(await this.pixels.update(account.id, id, dto));
  }

  @Delete(':id')
  @HttpCode(200)
  async destroy(@CurrentAccount() account: Account, @Param('id', IdPipe) id: number) {
    await this.pixels.remove(account.id, id);
    return deletedEnvelope(id, 'pixel');
  }
}
