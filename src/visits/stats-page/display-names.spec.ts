import { countryName, displayValue, languageName } from './display-names';
import { translatorFor } from '../pages/translator';

const en = translatorFor('en');
const de = translatorFor('de');
const fr = translatorFor('fr');
const es = translatorFor('es');

describe('display names', () => {
  it('names countries in English from countries-list, and in the visitor’s language otherwise', () => {
    expect(countryName('GB', en)).toBe('United Kingdom');
    expect(countryName('gb', en)).toBe('United Kingdom');
    expect(countryName('GB', de)).toBe('Vereinigtes Königreich');
    expect(countryName('DE', fr)).toBe('Allemagne');
    // Not a country: the stored value as it is.
    expect(countryName('XX', en)).toBe('XX');
    expect(countryName('XX', de)).toBe('XX');
  });

  it('names languages from their ISO 639-1 code, capitalised as a list item', () => {
    expect(languageName('en', en)).toBe('English');
    expect(languageName('de', en)).toBe('German');
    expect(languageName('en', fr)).toBe('Anglais');
    expect(languageName('de', es)).toBe('Alemán');
    expect(languageName('fr', de)).toBe('Französisch');
    expect(languageName('zz', en)).toBe('zz');
  });

  it('reads no referrer as direct, other unknown values as unknown, in the visitor’s language', () => {
    expect(displayValue('referrer', null, en)).toBe('Direct');
    expect(displayValue('referrer', '', de)).toBe('Direkt');
    expect(displayValue('country', null, en)).toBe('Unknown');
    expect(displayValue('browser', null, fr)).toBe('Inconnu');
  });

  it('names continents and devices from the catalogue, and keeps other values as stored', () => {
    expect(displayValue('continent', 'EU', en)).toBe('Europe');
    expect(displayValue('continent', 'na', es)).toBe('América del Norte');
    expect(displayValue('continent', 'XX', en)).toBe('XX');
    expect(displayValue('device', 'Mobile', de)).toBe('Smartphone');
    expect(displayValue('device', 'television', fr)).toBe('Téléviseur');
    expect(displayValue('device', 'Fridge', en)).toBe('Fridge');
    expect(displayValue('browser', 'Firefox Mobile', de)).toBe('Firefox Mobile');
    expect(displayValue('operating_system', 'OS X', en)).toBe('OS X');
    expect(displayValue('referrer', 'news.example.org', en)).toBe('news.example.org');
    expect(displayValue('country', 'US', en)).toBe('United States');
    expect(displayValue('language', 'es', en)).toBe('Spanish');
  });
});
