import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Pixel } from './pixel.entity';
import { PixelsController } from './pixels.controller';
import { PixelsService } from './pixels.service';

@Module({
  imports: [TypeOrmModule.forFeature([Pixel])],
  controllers: [PixelsController],
  providers: [PixelsService],
  exports: [PixelsService],
})
export class PixelsModule {}
