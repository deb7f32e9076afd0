import { Module } from '@nestjs/common';
import type { AppConfig } from '../config/app-config';
import { APP_CONFIG } from '../config/config.module';
import { cityDatabaseFiles, GEOIP_CITY_FILES, GeoIp } from './geoip';

/** The allowed-values tables, the visitor profile and the matcher are plain functions; GeoIP is a provider. */
@Module({
  providers: [
    {
      provide: GEOIP_CITY_FILES,
      inject: [APP_CONFIG],
      useFactory: (config: AppConfig) => cityDatabaseFiles(config.geoipCityDatabase),
    },
    GeoIp,
  ],
  exports: [GeoIp],
})
export class TargetingModule {}
