import { Module } from '@nestjs/common';
import { ClickWriter } from './click-writer';

/** Counting and recording clicks: used by visits, and settled by the API before it reads counters. */
@Module({ providers: [ClickWriter], exports: [ClickWriter] })
export class ClicksModule {}
