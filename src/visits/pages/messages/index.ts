/**
 * Every text of the visitor pages, in each language they are offered in. `{name}` is a value the page fills in;
 * keys ending in `_one` and `_other` are the plural forms of one message.
 */
import { de } from './de';
import { en, type Messages } from './en';
import { es } from './es';
import { fr } from './fr';

export type { MessageKey, Messages } from './en';

export const LOCALES = ['en', 'es', 'fr', 'de'] as const;
export type Locale = (typeof LOCALES)[number];

export const CATALOGUE: Record<Locale, Messages> = { en, es, fr, de };

/** A qvalue as RFC 9110 (12.4.2) writes it: 0 to 1, with at most three decimals. */
const QVALUE = /^(?:0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/;

/** The weight of a language range from its parameters: 1 without `q`, null when `q` is not a qvalue. */
function rangeWeight(parameters: string[]): number | null {
  const quality = parameters.map((parameter) => parameter.trim()).find((parameter) => /^q=/i.test(parameter));
  if (quality === undefined) return 1;
  const value = quality.slice(2);
  return QVALUE.test(value) ? Number(value) : null;
}

/**
 * The visitor's language from `Accept-Language`: the offered language with the highest weight (`de-CH` counts
 * as `de`), English when none is offered or the header is missing or unreadable. A range with a weight that is not
 * a qvalue is ignored, not taken as 1.
 */
export function pickLocale(acceptLanguage: string | undefined): Locale {
  if (acceptLanguage === undefined) return 'en';
  let best: { locale: Locale; weight: number } | null = null;
  // A bounded read: a header of hundreds of ranges is cut rather than parsed in full.
  for (const range of acceptLanguage.slice(0, 1024).split(',').slice(0, 32)) {
    const [tag, ...parameters] = range.trim().split(';');
    const language = tag.trim().toLowerCase().split('-')[0];
    const weight = rangeWeight(parameters);
    if (weight === null || weight === 0) continue;
    const locale = language === '*' ? 'en' : LOCALES.find((candidate) => candidate === language);
    if (locale !== undefined && (best === null || weight > best.weight)) best = { locale, weight };
  }
  return best?.locale ?? 'en';
}
