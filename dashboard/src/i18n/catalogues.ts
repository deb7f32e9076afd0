import { de } from './de';
import { en, type Messages } from './en';
import { es } from './es';
import { fr } from './fr';
import type { Language } from './languages';

/** Every language's catalogue; each is typed by the English one, so a missing or extra key fails the type check. */
export const catalogues: Record<Language, Messages> = { en, es, fr, de };
