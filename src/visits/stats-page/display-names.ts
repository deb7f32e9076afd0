import { countries } from 'countries-list';
import ISO6391 from 'iso-639-1';
import { VISITOR_DIMENSIONS, type VisitorDimension } from '../../clicks/click-dimensions';
import type { MessageKey } from '../pages/messages';
import type { Translator } from '../pages/translator';

/**
 * Dimensions of the stats page, in the order it shows them: the visitor's, but the city, which the page leaves
 * out (nor does it show where clicks were sent: a link's targets are its owner's). The stored values are codes or
 * names.
 */
export type PageDimension = Exclude<VisitorDimension, 'city'>;
export const PAGE_DIMENSIONS = VISITOR_DIMENSIONS.filter((name): name is PageDimension => name !== 'city');

export const DIMENSION_TITLES: Record<PageDimension, MessageKey> = {
  referrer: 'referrers',
  country: 'countries',
  continent: 'continents',
  browser: 'browsers',
  operating_system: 'operatingSystems',
  device: 'devices',
  language: 'languages',
};

const DEVICES: Record<string, MessageKey> = {
  desktop: 'deviceDesktop',
  mobile: 'deviceMobile',
  tablet: 'deviceTablet',
  watch: 'deviceWatch',
  television: 'deviceTelevision',
};

const CONTINENTS: Record<string, MessageKey> = {
  AF: 'continentAF',
  AN: 'continentAN',
  AS: 'continentAS',
  EU: 'continentEU',
  NA: 'continentNA',
  OC: 'continentOC',
  SA: 'continentSA',
};

type DisplayNameType = 'region' | 'language';
const DISPLAY_NAMES = new Map<string, Intl.DisplayNames | null>();

/** The runtime's name of a code in a language other than English, where it has one (Node with full ICU). */
function localName(locale: string, type: DisplayNameType, code: string): string | undefined {
  const key = `${locale}|${type}`;
  if (!DISPLAY_NAMES.has(key)) {
    let names: Intl.DisplayNames | null;
    try {
      names = new Intl.DisplayNames([locale], { type, fallback: 'none' });
    } catch {
      names = null;
    }
    DISPLAY_NAMES.set(key, names);
  }
  try {
    return DISPLAY_NAMES.get(key)?.of(code) ?? undefined;
  } catch {
    return undefined;
  }
}

/** A country's name: English from countries-list, other languages from the runtime, falling back to English. */
export function countryName(code: string, t: Translator): string {
  const english = (countries as Record<string, { name: string } | undefined>)[code.toUpperCase()]?.name;
  if (english === undefined) return code;
  if (t.locale === 'en') return english;
  return localName(t.locale, 'region', code.toUpperCase()) ?? english;
}

/** A language's name from its ISO 639-1 code, as {@link countryName} finds it. */
export function languageName(code: string, t: Translator): string {
  const lower = code.toLowerCase();
  if (!ISO6391.validate(lower)) return code;
  const english = ISO6391.getName(lower);
  if (t.locale === 'en') return english;
  const local = localName(t.locale, 'language', lower);
  // Names of languages are written in lower case in French and Spanish prose, capitalised in a list.
  return local === undefined ? english : local.charAt(0).toLocaleUpperCase(t.locale) + local.slice(1);
}

/** What a stats row's stored value reads as on the page, in the visitor's language. */
export function displayValue(dimension: PageDimension, value: string | null, t: Translator): string {
  if (value === null || value === '') return t.text(dimension === 'referrer' ? 'direct' : 'unknown');
  switch (dimension) {
    case 'country':
      return countryName(value, t);
    case 'language':
      return languageName(value, t);
    case 'continent': {
      const key = CONTINENTS[value.toUpperCase()];
      return key === undefined ? value : t.text(key);
    }
    case 'device': {
      const key = DEVICES[value.toLowerCase()];
      return key === undefined ? value : t.text(key);
    }
    case 'referrer':
    case 'browser':
    case 'operating_system':
      return value;
  }
}
