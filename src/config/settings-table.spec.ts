import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, SETTINGS, setting, type SettingName } from './settings';
import { documentedRows, settingsRows, settingsTable, withSettingsTable } from './settings-table';

const OPERATIONS = readFileSync(join(__dirname, '..', '..', 'docs', 'OPERATIONS.md'), 'utf8');
const NAMES = Object.keys(SETTINGS) as SettingName[];

describe('the settings table of docs/OPERATIONS.md', () => {
  it('is the one the schema gives, row for row (npm run docs:settings writes it)', () => {
    expect(documentedRows(OPERATIONS)).toEqual(settingsRows());
    expect(withSettingsTable(OPERATIONS)).toContain(settingsTable());
  });

  it('names every setting once, a secret with _file_', () => {
    const names = documentedRows(OPERATIONS).map(([variable]) => variable);

    expect(names).toEqual(
      NAMES.map((name) => `\`${name}\`${SETTINGS[name].secret === true ? ' _file_' : ''}`),
    );
    expect(new Set(names).size).toBe(NAMES.length);
  });

  it('states the defaults the service takes when a setting is unset', () => {
    for (const [variable, shown] of documentedRows(OPERATIONS)) {
      const name = variable.replace(/`| _file_/g, '') as SettingName;
      const value = setting({}, name);
      // Unset, or taken from another setting (`DATABASE_URL`, the host of `APP_URL`): read as unset here.
      if (shown === 'unset' || /^(the host of )?`[A-Z][A-Z_]+`$/.test(shown)) {
        expect({ name, value }).toEqual({ name, value: undefined });
      } else {
        expect({ name, shown }).toEqual({ name, shown: `\`${String(value as string | number | boolean)}\`` });
      }
    }
  });

  // The refusal and the table say what a setting takes in the same words; three rules say more than that.
  const ELABORATE: readonly SettingName[] = ['APP_URL', 'TRUST_PROXY', 'GEOIP_CITY_DATABASE'];

  it.each(NAMES)('%s: a value it does not take is refused in the words of the table', (name) => {
    const bad = 'not a \u0007 value/';
    let refusal: unknown;
    try {
      setting({ [name]: bad }, name);
    } catch (error) {
      refusal = error;
    }
    const takes = documentedRows(OPERATIONS).find(([variable]) => variable.startsWith(`\`${name}\``))?.[2];
    if (['any characters', 'a directory', 'a URL'].includes(takes ?? '')) {
      expect(refusal).toBeUndefined();
      return;
    }
    expect(refusal).toBeInstanceOf(ConfigError);
    expect((refusal as ConfigError).variable).toBe(name);
    if (!ELABORATE.includes(name)) {
      expect((refusal as ConfigError).message).toContain(`${name} must be ${takes?.replace(/\\\|/g, '|')}`);
    }
    if (SETTINGS[name].secret === true) expect((refusal as ConfigError).message).not.toContain(bad);
  });
});
