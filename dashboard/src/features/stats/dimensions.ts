import type { StatsName } from '../../api/types';
import type { Messages } from '../../i18n/en';
import { countryName, languageName } from '../../i18n/names';

/** The stats the API breaks clicks down by, in the order the page shows them. */
export const DIMENSIONS = [
  'country',
  'city',
  'continent',
  'referrer',
  'browser',
  'operating_system',
  'device',
  'language',
  // Where each click was sent: a rotation's turn, a matching target, an app link, or the link's own url.
  'target',
] as const satisfies readonly StatsName[];

export type Dimension = (typeof DIMENSIONS)[number];

/**
 * A recorded value as the reader reads it. The API writes them as phpShort does: a country `GB:United Kingdom`, a
 * city `GB:London`, a continent or language code, a device in lower case; an empty value is unknown, or for a
 * referrer a direct visit.
 */
export function displayValue(
  dimension: Dimension,
  value: string | null,
  language: string,
  t: Messages,
): string {
  if (value === null || value === '') return dimension === 'referrer' ? t.stats.direct : t.stats.unknown;
  switch (dimension) {
    case 'country': {
      const [code = '', name] = value.split(':', 2);
      const named = countryName(language, code);
      return named !== code ? named : (name ?? value);
    }
    case 'city': {
      const separator = value.indexOf(':');
      return separator === -1 ? value : `${value.slice(separator + 1)} (${value.slice(0, separator)})`;
    }
    case 'continent':
      return Object.hasOwn(t.continents, value) ? t.continents[value as keyof Messages['continents']] : value;
    case 'language':
      return languageName(language, value);
    case 'device': {
      const key = (value.charAt(0).toUpperCase() + value.slice(1)) as keyof Messages['devices'];
      return Object.hasOwn(t.devices, key) ? t.devices[key] : value;
    }
    case 'referrer':
    case 'browser':
    case 'operating_system':
    case 'target':
      return value;
  }
}
