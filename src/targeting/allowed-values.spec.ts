import {
  BROWSERS,
  canonicalTargetKey,
  continentOf,
  DEVICES,
  isCountryCode,
  isLanguageCode,
  OPERATING_SYSTEMS,
  TargetsType,
} from './allowed-values';

describe('targeting allowed values', () => {
  it.each([
    ['US', 'US'],
    ['gb', 'GB'],
    ['XX', null],
    ['USA', null],
    ['XK', null],
    ['', null],
  ])('country %p → %p', (key, expected) => {
    expect(canonicalTargetKey(TargetsType.Countries, key)).toBe(expected);
  });

  it.each([
    ['EU', 'EU'],
    ['na', 'NA'],
    ['Europe', null],
    ['AA', null],
  ])('continent %p → %p', (key, expected) => {
    expect(canonicalTargetKey(TargetsType.Continents, key)).toBe(expected);
  });

  it.each([
    ['en', 'en'],
    ['FR', 'fr'],
    ['xx', null],
    ['eng', null],
  ])('language %p → %p', (key, expected) => {
    expect(canonicalTargetKey(TargetsType.Languages, key)).toBe(expected);
  });

  it('takes every listed OS, browser and device as it is, and refuses others', () => {
    for (const os of OPERATING_SYSTEMS) expect(canonicalTargetKey(TargetsType.OperatingSystems, os)).toBe(os);
    for (const browser of BROWSERS) expect(canonicalTargetKey(TargetsType.Browsers, browser)).toBe(browser);
    for (const device of DEVICES) {
      expect(canonicalTargetKey(TargetsType.Devices, device)).toBe(device);
      expect(canonicalTargetKey(TargetsType.Devices, device.toLowerCase())).toBe(device);
    }
    expect(canonicalTargetKey(TargetsType.OperatingSystems, 'BeOS')).toBeNull();
    expect(canonicalTargetKey(TargetsType.OperatingSystems, 'windows')).toBeNull();
    expect(canonicalTargetKey(TargetsType.Browsers, 'Netscape')).toBeNull();
    expect(canonicalTargetKey(TargetsType.Devices, 'Fridge')).toBeNull();
  });

  it('knows 249 countries and their continents', () => {
    let count = 0;
    for (let a = 65; a < 91; a += 1) {
      for (let b = 65; b < 91; b += 1) {
        const code = String.fromCharCode(a, b);
        if (isCountryCode(code)) {
          count += 1;
          expect(continentOf(code)).toMatch(/^(AF|AN|AS|EU|NA|OC|SA)$/);
        }
      }
    }
    expect(count).toBe(249);
    expect(continentOf('GB')).toBe('EU');
    expect(continentOf('US')).toBe('NA');
  });

  it('knows ISO 639-1 languages', () => {
    expect(isLanguageCode('de')).toBe(true);
    expect(isLanguageCode('zz')).toBe(false);
  });
});
