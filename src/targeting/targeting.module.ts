import { Module } from '@nestjs/common';
import { targetingConfig, type TargetingConfig } from '../config/app-config';
import { cityDatabaseFiles, GEOIP_CITY_FILES, GeoIp } from './geoip';

/** The allowed-values tables, the visitor profile and the matcher are plain functions; GeoIP is a provider. */
@Module({
  providers: [
    {
      provide: GEOIP_CITY_FILES,
      inject: [targetingConfig.KEY],
      useFactory: (config: TargetingConfig) => cityDatabaseFiles(config.geoipCityDatabase),
    },
    GeoIp,
  ],
  exports: [GeoIp],
})
export class TargetingModule {}
