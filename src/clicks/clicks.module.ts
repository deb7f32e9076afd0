import { Module } from '@nestjs/common';
import { ClickWriter } from './click-writer';
import { ClickPartitions } from './click-partitions';
import { ClickStore } from './click-store.repository';
import { ClickRepository } from './click.repository';

/** Counting and recording clicks: used by visits, and settled by the API before it reads counters. */
@Module({
  providers: [ClickWriter, ClickRepository, ClickStore, ClickPartitions],
  exports: [ClickWriter, ClickRepository, ClickStore],
})
export class ClicksModule {}
