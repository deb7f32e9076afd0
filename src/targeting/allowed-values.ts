import { countries as countryData } from 'countries-list';
import ISO6391 from 'iso-639-1';
import { isISO31661Alpha2 } from 'class-validator';

/**
 * The allowed-values tables of targeting, kept once: the link DTOs validate against them and the redirect
 * matches visitors against them.
 */

export enum TargetsType {
  Continents = 'continents',
  Countries = 'countries',
  OperatingSystems = 'operating_systems',
  Browsers = 'browsers',
  Languages = 'languages',
  Devices = 'devices',
  Rotations = 'rotations',
}

export const TARGETS_TYPES: readonly TargetsType[] = Object.values(TargetsType);

export const CONTINENTS = ['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA'] as const;
export type Continent = (typeof CONTINENTS)[number];

export const OPERATING_SYSTEMS = [
  'iOS',
  'Android',
  'Windows',
  'OS X',
  'Linux',
  'Ubuntu',
  'Chrome OS',
] as const;

export const BROWSERS = [
  'Chrome',
  'Chromium',
  'Firefox',
  'Firefox Mobile',
  'Edge',
  'Internet Explorer',
  'Mobile Internet Explorer',
  'Vivaldi',
  'Brave',
  'Safari',
  'Opera',
  'Opera Mini',
  'Opera Mobile',
  'Opera Touch',
  'Yandex Browser',
  'UC Browser',
  'Samsung Internet',
  'QQ Browser',
  'BlackBerry Browser',
  // Spelled as the spec spells it.
  'Maxtho',
] as const;

export const DEVICES = ['Desktop', 'Mobile', 'Tablet', 'Watch', 'Television'] as const;

/** ISO 3166-1 alpha-2, officially assigned codes only (no XK, AC, TA). */
export function isCountryCode(code: string): boolean {
  return /^[A-Z]{2}$/.test(code) && isISO31661Alpha2(code);
}

/** The continent of an ISO 3166-1 alpha-2 country, or null. */
export function continentOf(countryCode: string): Continent | null {
  const data = (countryData as Record<string, { continent: string } | undefined>)[countryCode];
  return data === undefined ? null : (data.continent as Continent);
}

/** Every country's English name by its ISO 3166-1 alpha-2 code, as phpShort writes stats values. */
export const COUNTRY_NAMES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(countryData as Record<string, { name: string }>).map(([code, data]) => [code, data.name]),
);

/** ISO 639-1, every code the language table knows. */
export const LANGUAGE_CODES: readonly string[] = ISO6391.getAllCodes();

export function isLanguageCode(code: string): boolean {
  return /^[a-z]{2}$/.test(code) && ISO6391.validate(code);
}

/**
 * The canonical form of a targeting key for a type, or null when the key is not allowed. Codes are accepted in
 * any case and stored as ISO writes them; device names also in lower case, as the contract says; OS and browser
 * names exactly as listed.
 */
export function canonicalTargetKey(type: TargetsType, key: string): string | null {
  switch (type) {
    case TargetsType.Continents: {
      const code = key.toUpperCase();
      return (CONTINENTS as readonly string[]).includes(code) ? code : null;
    }
    case TargetsType.Countries: {
      const code = key.toUpperCase();
      return isCountryCode(code) ? code : null;
    }
    case TargetsType.Languages: {
      const code = key.toLowerCase();
      return isLanguageCode(code) ? code : null;
    }
    case TargetsType.OperatingSystems:
      return (OPERATING_SYSTEMS as readonly string[]).includes(key) ? key : null;
    case TargetsType.Browsers:
      return (BROWSERS as readonly string[]).includes(key) ? key : null;
    case TargetsType.Devices:
      return DEVICES.find((device) => device === key || device.toLowerCase() === key) ?? null;
    case TargetsType.Rotations:
      // A rotation has no key: its values are taken in turn.
      return '';
  }
}
