// Names of countries and languages from the browser's own tables (Intl.DisplayNames), in the reader's language:
// nothing to ship or keep up to date.
import { CountryCodeValues, LanguageCodeValues } from '../api/enums';
import { LANGUAGE_NAMES } from './language-names';
import type { Language } from './languages';

export interface NamedCode {
  code: string;
  name: string;
}

const namers = new Map<string, (code: string) => string>();

function namer(language: string, type: 'region' | 'language'): (code: string) => string {
  const key = `${type}:${language}`;
  let name = namers.get(key);
  if (name === undefined) {
    // Browsers trim their tables (Chromium has no name for "aa", Afar): the names shipped for the API's language
    // codes stand in where the browser has none.
    const shipped: Readonly<Record<string, string>> =
      type === 'language' && Object.hasOwn(LANGUAGE_NAMES, language)
        ? LANGUAGE_NAMES[language as Language]
        : {};
    const fallback = (code: string) => (Object.hasOwn(shipped, code) ? shipped[code]! : code);
    try {
      const names = new Intl.DisplayNames([language], { type, fallback: 'none' });
      name = (code) => {
        try {
          return names.of(code) ?? fallback(code);
        } catch {
          return fallback(code); // a code that is not well formed
        }
      };
    } catch {
      name = fallback;
    }
    namers.set(key, name);
  }
  return name;
}

const cache = new Map<string, NamedCode[]>();

function sortedNames(
  key: string,
  codes: readonly string[],
  name: (code: string) => string,
  language: string,
) {
  let list = cache.get(key);
  if (list === undefined) {
    const collator = new Intl.Collator(language);
    list = codes.map((code) => ({ code, name: name(code) })).sort((a, b) => collator.compare(a.name, b.name));
    cache.set(key, list);
  }
  return list;
}

/** The ISO 3166-1 codes the API takes, with their names, sorted by name; computed once per language. */
export function countries(language: string): NamedCode[] {
  return sortedNames(`region:${language}`, CountryCodeValues, namer(language, 'region'), language);
}

/** The ISO 639-1 codes the API takes, with their names, sorted by name; computed once per language. */
export function languages(language: string): NamedCode[] {
  return sortedNames(`language:${language}`, LanguageCodeValues, namer(language, 'language'), language);
}

export function countryName(language: string, code: string): string {
  return namer(language, 'region')(code.toUpperCase());
}

export function languageName(language: string, code: string): string {
  return namer(language, 'language')(code.toLowerCase());
}
