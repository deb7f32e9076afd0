// Writes src/i18n/language-names.ts: the name of each language code the API takes, in each language the dashboard
// speaks, from Node's full ICU data. Browsers ship trimmed tables (Chromium names about a quarter of these codes
// by their code alone), so the dashboard falls back on this one where the browser has no name.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const document = JSON.parse(readFileSync(join(root, '..', 'docs', 'openapi.json'), 'utf8'));
const codes = /** @type {string[]} */ (document.components.schemas.LanguageCode.enum);
const tables = ['en', 'es', 'fr', 'de'].map((language) => {
  const names = new Intl.DisplayNames([language], { type: 'language', fallback: 'none' });
  const entries = codes.map((code) => `    ${code}: ${JSON.stringify(names.of(code) ?? code)},`);
  return `  ${language}: {\n${entries.join('\n')}\n  },`;
});
const text = [
  '// Written by `npm run generate` from ../docs/openapi.json and Node.js’s ICU data: do not edit.',
  "import type { components } from '../api/schema';",
  "import type { Language } from './languages';",
  '',
  '/** Each language code the API takes, named in each language of the dashboard. */',
  "export const LANGUAGE_NAMES: Record<Language, Record<components['schemas']['LanguageCode'], string>> = {",
  ...tables,
  '};',
  '',
].join('\n');
writeFileSync(join(root, 'src', 'i18n', 'language-names.ts'), text);
