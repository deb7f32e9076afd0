import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import {
  BrowserValues,
  ContinentValues,
  CountryCodeValues,
  DeviceValues,
  LanguageCodeValues,
  OperatingSystemValues,
} from '../src/api/enums';
import type { FieldErrors } from '../src/api/errors';
import { TargetingEditor } from '../src/features/links/TargetingEditor';
import {
  NO_TARGETING,
  targetingBody,
  targetingOfLink,
  type Targeting,
} from '../src/features/links/targeting';
import { I18nProvider } from '../src/i18n/I18nProvider';

function Harness({ initial = NO_TARGETING, errors = {} }: { initial?: Targeting; errors?: FieldErrors }) {
  const [value, setValue] = useState(initial);
  return (
    <I18nProvider language="en">
      <TargetingEditor value={value} onChange={setValue} errors={errors} />
      <output data-testid="body">{JSON.stringify(targetingBody(value))}</output>
    </I18nProvider>
  );
}

const body = () => JSON.parse(screen.getByTestId('body').textContent ?? '') as unknown;
const rule = (n: number) => screen.getByRole('group', { name: `Rule ${n}` });

/** The values a row's picker offers, without its "Choose…" placeholder. */
function offered(row: HTMLElement, label: string): string[] {
  const select = within(row).getByLabelText(label);
  return [...select.querySelectorAll('option')].map((option) => option.value).filter((value) => value !== '');
}

describe('the targeting editor', () => {
  it('starts with no targeting, which the API receives as nulls', () => {
    render(<Harness />);
    expect(screen.getByLabelText('Target by')).toHaveValue('');
    expect(screen.queryByRole('group', { name: /Rule/ })).not.toBeInTheDocument();
    expect(body()).toEqual({ targets_type: null, targets: null });
  });

  it.each([
    ['countries', 'Country', CountryCodeValues],
    ['continents', 'Continent', ContinentValues],
    ['operating_systems', 'Operating system', OperatingSystemValues],
    ['browsers', 'Browser', BrowserValues],
    ['languages', 'Language', LanguageCodeValues],
    ['devices', 'Device', DeviceValues],
  ] as const)('for %s, offers exactly the values the API document allows', async (type, label, allowed) => {
    const user = userEvent.setup({ delay: null });
    render(<Harness />);

    await user.selectOptions(screen.getByLabelText('Target by'), type);

    expect([...offered(rule(1), label)].sort()).toEqual([...allowed].sort());
  });

  it('names countries and languages, and the continents in the reader’s language', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Harness />);
    const type = screen.getByLabelText('Target by');

    await user.selectOptions(type, 'countries');
    expect(within(rule(1)).getByRole('option', { name: 'France (FR)' })).toHaveValue('FR');
    await user.selectOptions(type, 'languages');
    expect(within(rule(1)).getByRole('option', { name: 'German (de)' })).toHaveValue('de');
    await user.selectOptions(type, 'continents');
    expect(within(rule(1)).getByRole('option', { name: 'South America (SA)' })).toHaveValue('SA');
  });

  it('builds rows of key → URL, adds and removes them, and produces the API’s targets', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Harness />);

    await user.selectOptions(screen.getByLabelText('Target by'), 'countries');
    await user.selectOptions(within(rule(1)).getByLabelText('Country'), 'FR');
    await user.type(within(rule(1)).getByLabelText('URL'), 'https://example.fr/');
    await user.click(screen.getByRole('button', { name: 'Add a rule' }));
    await user.selectOptions(within(rule(2)).getByLabelText('Country'), 'DE');
    await user.type(within(rule(2)).getByLabelText('URL'), 'https://example.de/');
    await user.click(screen.getByRole('button', { name: 'Add a rule' }));
    await user.selectOptions(within(rule(3)).getByLabelText('Country'), 'US');
    await user.type(within(rule(3)).getByLabelText('URL'), 'https://example.com/us');

    await user.click(within(rule(2)).getByRole('button', { name: 'Remove Rule 2' }));

    expect(body()).toEqual({
      targets_type: 'countries',
      targets: [
        { key: 'FR', value: 'https://example.fr/' },
        { key: 'US', value: 'https://example.com/us' },
      ],
    });
    expect(screen.queryByRole('group', { name: 'Rule 3' })).not.toBeInTheDocument();
  });

  it('keeps the URLs and drops the keys when the type changes', async () => {
    const user = userEvent.setup({ delay: null });
    render(
      <Harness
        initial={targetingOfLink({
          targets_type: 'devices',
          targets: [{ key: 'Mobile', value: 'https://m.example/' }],
        })}
      />,
    );

    await user.selectOptions(screen.getByLabelText('Target by'), 'browsers');

    expect(within(rule(1)).getByLabelText('Browser')).toHaveValue('');
    expect(within(rule(1)).getByLabelText('URL')).toHaveValue('https://m.example/');
    await user.selectOptions(within(rule(1)).getByLabelText('Browser'), 'Firefox');
    expect(body()).toEqual({
      targets_type: 'browsers',
      targets: [{ key: 'Firefox', value: 'https://m.example/' }],
    });
  });

  it('for rotations, takes a list of URLs without keys', async () => {
    const user = userEvent.setup({ delay: null });
    render(<Harness />);

    await user.selectOptions(screen.getByLabelText('Target by'), 'rotations');
    const first = screen.getByRole('group', { name: 'Destination 1' });
    expect(within(first).queryByRole('combobox')).not.toBeInTheDocument();
    await user.type(within(first).getByLabelText('URL'), 'https://a.example/');
    await user.click(screen.getByRole('button', { name: 'Add a destination' }));
    await user.type(
      within(screen.getByRole('group', { name: 'Destination 2' })).getByLabelText('URL'),
      'https://b.example/',
    );

    expect(body()).toEqual({
      targets_type: 'rotations',
      targets: [{ value: 'https://a.example/' }, { value: 'https://b.example/' }],
    });
  });

  it('for rotations, sends the weight given to a destination, and none for one left at the default', async () => {
    const user = userEvent.setup({ delay: null });
    render(
      <Harness
        initial={targetingOfLink({
          targets_type: 'rotations',
          targets: [
            { value: 'https://a.example/', weight: 70 },
            { value: 'https://b.example/', weight: 1 },
          ],
        })}
      />,
    );
    const first = screen.getByRole('group', { name: 'Destination 1' });
    expect(within(first).getByLabelText('Weight')).toHaveValue(70);
    const second = screen.getByRole('group', { name: 'Destination 2' });
    await user.type(within(second).getByLabelText('Weight'), '30');

    expect(body()).toEqual({
      targets_type: 'rotations',
      targets: [
        { value: 'https://a.example/', weight: 70 },
        { value: 'https://b.example/', weight: 30 },
      ],
    });
  });

  it('going back to no targeting clears every row', async () => {
    const user = userEvent.setup({ delay: null });
    render(
      <Harness
        initial={targetingOfLink({
          targets_type: 'continents',
          targets: [{ key: 'EU', value: 'https://eu.example/' }],
        })}
      />,
    );
    expect(within(rule(1)).getByLabelText('Continent')).toHaveValue('EU');

    await user.selectOptions(screen.getByLabelText('Target by'), '');

    expect(body()).toEqual({ targets_type: null, targets: null });
  });

  it("shows the API's messages beside the row and the field they name", () => {
    render(
      <Harness
        initial={targetingOfLink({
          targets_type: 'languages',
          targets: [
            { key: 'en', value: 'https://en.example/' },
            { key: 'xx', value: 'ftp://nope' },
          ],
        })}
        errors={{
          'targets.1.key': ['The selected key is invalid.'],
          'targets.1.value': ['The value must be an http or https URL.'],
          targets_type: ['The targets type is invalid.'],
        }}
      />,
    );

    const key = within(rule(2)).getByLabelText('Language');
    const url = within(rule(2)).getByLabelText('URL');
    expect(key).toHaveAttribute('aria-invalid', 'true');
    expect(key).toHaveAccessibleDescription('The selected key is invalid.');
    expect(url).toHaveAccessibleDescription('The value must be an http or https URL.');
    expect(within(rule(1)).getByLabelText('URL')).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText('Target by')).toHaveAccessibleDescription('The targets type is invalid.');
    // A key the list does not know (from an older link) stays shown rather than silently replaced.
    expect(key).toHaveValue('xx');
  });
});
