import { Module } from '@nestjs/common';
import { GeoIp } from './geoip';

/** The allowed-values tables, the visitor profile and the matcher are plain functions; GeoIP is a provider. */
@Module({
  providers: [GeoIp],
  exports: [GeoIp],
})
export class TargetingModule {}
