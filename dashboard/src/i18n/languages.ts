/** The languages the dashboard speaks, by ISO 639-1 code, each named in itself for the picker. */
export const LANGUAGES = {
  en: 'English',
  es: 'Español',
  fr: 'Français',
  de: 'Deutsch',
} as const;

export type Language = keyof typeof LANGUAGES;

const STORAGE_KEY = 'dashboard.language';

function isLanguage(value: string | null | undefined): value is Language {
  return value != null && Object.hasOwn(LANGUAGES, value);
}

/** The language chosen in the picker before, else the browser's first one the dashboard speaks, else English. */
export function initialLanguage(): Language {
  const stored = readStored();
  if (isLanguage(stored)) return stored;
  for (const tag of navigator.languages ?? [navigator.language]) {
    const base = tag.slice(0, 2).toLowerCase();
    if (isLanguage(base)) return base;
  }
  return 'en';
}

function readStored(): string | null {
  try {
    return localStorage.getItem(STORAGE_KEY);
  } catch {
    return null;
  }
}

export function storeLanguage(language: Language): void {
  try {
    localStorage.setItem(STORAGE_KEY, language);
  } catch {
    // Storage may be refused (private mode, policy): the choice then lasts for this page only.
  }
}
