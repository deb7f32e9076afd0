import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { QuotaRepository } from '../database/quota.repository';
import { Transactions } from '../database/transactions';
import { Pixel } from './pixel.entity';
import { PixelsController } from './pixels.controller';
import { PixelsRepository } from './pixels.repository';
import { PixelsService } from './pixels.service';

@Module({
  imports: [TypeOrmModule.forFeature([Pixel])],
  controllers: [PixelsController],
  providers: [PixelsService, PixelsRepository, QuotaRepository, Transactions],
  exports: [PixelsService],
})
export class PixelsModule {}
