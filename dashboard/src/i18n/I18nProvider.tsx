import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { catalogues } from './catalogues';
import type { Messages } from './en';
import { initialLanguage, storeLanguage, type Language } from './languages';

interface I18nValue {
  language: Language;
  setLanguage: (language: Language) => void;
  t: Messages;
  /** Numbers as the language writes them. */
  number: (value: number) => string;
  /** A date and time of the API (ISO 8601, UTC) in the reader's zone, or a dash for none. */
  dateTime: (value: string | null | undefined) => string;
  /** The day alone, for narrow columns. */
  date: (value: string | null | undefined) => string;
}

const I18nContext = createContext<I18nValue | null>(null);

export function I18nProvider({ children, language: fixed }: { children: ReactNode; language?: Language }) {
  const [language, setChosen] = useState<Language>(() => fixed ?? initialLanguage());

  useEffect(() => {
    document.documentElement.lang = language;
  }, [language]);

  const setLanguage = useCallback((next: Language) => {
    storeLanguage(next);
    setChosen(next);
  }, []);

  const value = useMemo<I18nValue>(() => {
    const numbers = new Intl.NumberFormat(language);
    const dateTimes = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    const days = new Intl.DateTimeFormat(language, { dateStyle: 'medium' });
    const formatted = (format: Intl.DateTimeFormat) => (value: string | null | undefined) => {
      if (!value) return '—';
      const date = new Date(value);
      return Number.isNaN(date.getTime()) ? value : format.format(date);
    };
    return {
      language,
      setLanguage,
      t: catalogues[language],
      number: (value) => numbers.format(value),
      dateTime: formatted(dateTimes),
      date: formatted(days),
    };
  }, [language, setLanguage]);

  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): I18nValue {
  const value = useContext(I18nContext);
  if (value === null) throw new Error('useI18n needs an I18nProvider');
  return value;
}

/** The catalogue of the language in force. */
export function useT(): Messages {
  return useI18n().t;
}
