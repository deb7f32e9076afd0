import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { LinkForm } from '../src/features/links/LinkForm';
import { json, listOf, type Routes } from './api';
import { domain, link, otherDomain, pixel, space } from './fixtures';
import { renderSignedIn } from './render';

const choices: Routes = {
  'GET /api/v1/spaces': listOf([space]),
  'GET /api/v1/domains': listOf([domain, otherDomain]),
  'GET /api/v1/pixels': listOf([pixel]),
  'GET /api/v1/tags': listOf([]),
  'GET /api/v1/utm-templates': listOf([]),
};

/** The §13 fields typed into the form by their labels, and as the create request sends them. */
const EXTRAS_TYPED = {
  Source: 'newsletter',
  Medium: 'email',
  Campaign: 'spring',
  Term: 'shoes',
  Content: 'header',
  'iOS link': 'myapp://item/7',
  'Android link': 'https://app.example.com/item/7',
  'Preview title': 'Spring sale',
  'Preview description': 'Half off',
  'Preview image (https)': 'https://cdn.example.com/card.png',
  Notes: 'For the spring campaign.',
};
const EXTRAS_SENT = {
  utm_source: 'newsletter',
  utm_medium: 'email',
  utm_campaign: 'spring',
  utm_term: 'shoes',
  utm_content: 'header',
  ios_url: 'myapp://item/7',
  android_url: 'https://app.example.com/item/7',
  og_title: 'Spring sale',
  og_description: 'Half off',
  og_image_url: 'https://cdn.example.com/card.png',
  notes: 'For the spring campaign.',
};
const NO_EXTRAS = Object.fromEntries(Object.keys(EXTRAS_SENT).map((name) => [name, null]));

const bodyOf = (request: { body: string | null } | undefined) =>
  JSON.parse(request?.body ?? 'null') as unknown;

describe('the link form', () => {
  it('sends every field the link API takes in the create request', async () => {
    const onSaved = vi.fn();
    const { api } = await renderSignedIn(<LinkForm onSaved={onSaved} onCancel={() => undefined} />, {
      routes: { ...choices, 'POST /api/v1/links': () => json(201, { data: link(), status: 200 }) },
    });
    const user = userEvent.setup({ delay: null });
    await screen.findByRole('option', { name: 'go.example.com' });

    await user.type(screen.getByLabelText('Destination URL'), 'https://example.com/landing');
    await user.type(screen.getByLabelText('Title'), 'Landing');
    await user.selectOptions(screen.getByLabelText('Domain'), 'go.example.com');
    await user.type(screen.getByLabelText('Alias'), 'launch');
    await user.selectOptions(screen.getByLabelText('Space'), 'Marketing');
    await user.click(screen.getByLabelText('Main tag (google-tag-manager)'));
    await user.type(screen.getByLabelText('Visitor password'), 'open sesame');
    await user.click(screen.getByLabelText('Sensitive content'));
    await user.click(screen.getByLabelText('Disabled'));
    await user.selectOptions(
      screen.getByLabelText('Who can see the public stats page'),
      'Those with a password',
    );
    await user.type(screen.getByLabelText('Stats password'), 'stats-secret');
    // The reader's local time (Paris, UTC+1 in winter) goes to the API in UTC.
    fireEvent.change(screen.getByLabelText('Active from (your local time)'), {
      target: { value: '2026-12-01T09:30' },
    });
    fireEvent.change(screen.getByLabelText('Active until (your local time)'), {
      target: { value: '2026-12-31T23:00' },
    });
    await user.type(screen.getByLabelText('Clicks limit'), '500');
    await user.type(screen.getByLabelText('Expiration URL'), 'https://example.com/over');
    await user.selectOptions(screen.getByLabelText('Target by'), 'countries');
    const rule = screen.getByRole('group', { name: 'Rule 1' });
    await user.selectOptions(within(rule).getByLabelText('Country'), 'FR');
    await user.type(within(rule).getByLabelText('URL'), 'https://example.fr/');
    for (const [label, text] of Object.entries(EXTRAS_TYPED))
      await user.type(screen.getByLabelText(label), text);
    await user.click(screen.getByLabelText('Tags'));
    await user.paste('spring, Sale,');
    await user.click(screen.getByLabelText('Archived'));

    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(onSaved).toHaveBeenCalledWith(link()));
    const posts = api.to('POST', '/api/v1/links');
    expect(posts).toHaveLength(1);
    expect(posts[0]?.headers.get('Content-Type')).toBe('application/json');
    expect(bodyOf(posts[0])).toEqual({
      url: 'https://example.com/landing',
      title: 'Landing',
      domain_id: 2,
      alias: 'launch',
      space_id: 3,
      pixel_ids: [7],
      redirect_password: 'open sesame',
      sensitive_content: 1,
      disabled: 1,
      privacy: 2,
      password: 'stats-secret',
      active_period_start_at: '2026-12-01T08:30:00.000Z',
      active_period_end_at: '2026-12-31T22:00:00.000Z',
      clicks_limit: 500,
      expiration_url: 'https://example.com/over',
      targets_type: 'countries',
      targets: [{ key: 'FR', value: 'https://example.fr/' }],
      tags: ['spring', 'Sale'],
      archived: 1,
      ...EXTRAS_SENT,
    });
  });

  it('leaves out what was left empty on create, so the API applies its defaults', async () => {
    const { api } = await renderSignedIn(<LinkForm onSaved={() => undefined} onCancel={() => undefined} />, {
      routes: { ...choices, 'POST /api/v1/links': () => json(201, { data: link(), status: 200 }) },
    });
    const user = userEvent.setup({ delay: null });

    await user.type(screen.getByLabelText('Destination URL'), 'https://example.com/');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.to('POST', '/api/v1/links')).toHaveLength(1));
    expect(bodyOf(api.to('POST', '/api/v1/links')[0])).toEqual({
      url: 'https://example.com/',
      sensitive_content: 0,
      privacy: 0,
      disabled: 0,
    });
  });

  it('edits with PUT: the form starts from the link, the domain is fixed, emptied fields are sent as null', async () => {
    const existing = link({
      space,
      pixels: [pixel],
      redirect_password: true,
      privacy: 2,
      password: true,
      active_period_start_at: '2026-07-01T08:00:00.000000Z',
      active_period_end_at: '2026-07-31T20:00:00.000000Z',
      clicks_limit: 100,
      expiration_url: 'https://example.com/over',
      targets_type: 'rotations',
      targets: [{ value: 'https://a.example/' }, { value: 'https://b.example/' }],
      utm_source: 'qr',
      notes: 'Kept as it was.',
      tags: ['news', 'tech'],
    });
    const { api } = await renderSignedIn(
      <LinkForm link={existing} onSaved={() => undefined} onCancel={() => undefined} />,
      {
        routes: { ...choices, 'PUT /api/v1/links/:id': () => json(200, { data: existing, status: 200 }) },
      },
    );
    const user = userEvent.setup({ delay: null });
    await screen.findByRole('option', { name: 'go.example.com' });

    // In Paris summer time (UTC+2).
    expect(screen.getByLabelText('Active from (your local time)')).toHaveValue('2026-07-01T10:00');
    expect(screen.getByLabelText('Domain')).toBeDisabled();
    expect(screen.getByLabelText('Main tag (google-tag-manager)')).toBeChecked();
    expect(screen.getByLabelText('Stats password')).toHaveAccessibleDescription(/A password is set/);

    await user.selectOptions(screen.getByLabelText('Space'), 'No space');
    await user.clear(screen.getByLabelText('Title'));
    await user.clear(screen.getByLabelText('Expiration URL'));
    await user.clear(screen.getByLabelText('Clicks limit'));
    expect(screen.getByLabelText('Notes')).toHaveValue('Kept as it was.');
    await user.clear(screen.getByLabelText('Source'));
    await user.click(screen.getByRole('button', { name: 'Remove tag tech' }));
    await user.click(screen.getByLabelText('Archived'));
    await user.click(screen.getByLabelText('Remove the visitor password'));
    await user.click(
      within(screen.getByRole('group', { name: 'Destination 2' })).getByRole('button', { name: /Remove/ }),
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.to('PUT', '/api/v1/links/5')).toHaveLength(1));
    expect(bodyOf(api.to('PUT', '/api/v1/links/5')[0])).toEqual({
      url: 'https://example.com/spring',
      title: null,
      alias: 'spring',
      space_id: null,
      pixel_ids: [7],
      redirect_password: null,
      sensitive_content: 0,
      privacy: 2,
      disabled: 0,
      active_period_start_at: '2026-07-01T08:00:00.000Z',
      active_period_end_at: '2026-07-31T20:00:00.000Z',
      clicks_limit: null,
      expiration_url: null,
      targets_type: 'rotations',
      targets: [{ value: 'https://a.example/' }],
      tags: ['news'],
      archived: 1,
      ...NO_EXTRAS,
      notes: 'Kept as it was.',
    });
  });

  it("shows a 422's messages beside their fields, nested targeting fields included, and focuses the first", async () => {
    const onSaved = vi.fn();
    await renderSignedIn(<LinkForm onSaved={onSaved} onCancel={() => undefined} />, {
      routes: {
        ...choices,
        'POST /api/v1/links': () =>
          json(422, {
            message: {
              url: ['The url must be an http or https URL.'],
              alias: ['The alias has already been taken.'],
              active_period_end_at: ['The end must be after the start.'],
              'targets.0.value': ['The value must be an http or https URL.'],
              'links.0.other': ['A field this form does not show.'],
            },
            status: 422,
          }),
      },
    });
    const user = userEvent.setup({ delay: null });

    await user.type(screen.getByLabelText('Destination URL'), 'https://example.com/');
    await user.type(screen.getByLabelText('Alias'), 'taken');
    await user.selectOptions(screen.getByLabelText('Target by'), 'rotations');
    await user.type(
      within(screen.getByRole('group', { name: 'Destination 1' })).getByLabelText('URL'),
      'https://example.net/',
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const url = screen.getByLabelText('Destination URL');
    await waitFor(() => expect(url).toHaveAttribute('aria-invalid', 'true'));
    expect(url).toHaveAccessibleDescription(expect.stringContaining('The url must be an http or https URL.'));
    expect(url).toHaveFocus();
    expect(screen.getByLabelText('Alias')).toHaveAccessibleDescription(
      expect.stringContaining('The alias has already been taken.'),
    );
    expect(screen.getByLabelText('Active until (your local time)')).toHaveAccessibleDescription(
      'The end must be after the start.',
    );
    expect(
      within(screen.getByRole('group', { name: 'Destination 1' })).getByLabelText('URL'),
    ).toHaveAccessibleDescription('The value must be an http or https URL.');
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Some fields need attention.');
    expect(alert).toHaveTextContent('links.0.other: A field this form does not show.');
    expect(alert).not.toHaveTextContent('The alias has already been taken.');
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('takes addresses typed without a scheme, and sends them with https://', async () => {
    const { api } = await renderSignedIn(<LinkForm onSaved={() => undefined} onCancel={() => undefined} />, {
      routes: { ...choices, 'POST /api/v1/links': () => json(201, { data: link(), status: 200 }) },
    });
    const user = userEvent.setup({ delay: null });

    const url = screen.getByLabelText('Destination URL');
    await user.type(url, 'example.com/page');
    await user.tab();
    expect(url).toHaveValue('https://example.com/page');
    await user.type(screen.getByLabelText('Expiration URL'), 'localhost:8080/over');
    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.to('POST', '/api/v1/links')).toHaveLength(1));
    expect(bodyOf(api.to('POST', '/api/v1/links')[0])).toMatchObject({
      url: 'https://example.com/page',
      expiration_url: 'https://localhost:8080/over',
    });
  });

  it('says that an active period needs both dates when only its end is given', async () => {
    const { api } = await renderSignedIn(<LinkForm onSaved={() => undefined} onCancel={() => undefined} />, {
      routes: choices,
    });
    const user = userEvent.setup({ delay: null });
    expect(screen.getByText(/give both dates, or neither/)).toBeInTheDocument();

    await user.type(screen.getByLabelText('Destination URL'), 'https://example.com/');
    fireEvent.change(screen.getByLabelText('Active until (your local time)'), {
      target: { value: '2026-12-31T23:00' },
    });
    await user.click(screen.getByRole('button', { name: 'Save' }));

    const start = screen.getByLabelText<HTMLInputElement>('Active from (your local time)');
    expect(start.validationMessage).toBe('Give this date too: an active period needs both, or neither.');
    expect(screen.getByLabelText<HTMLInputElement>('Active until (your local time)').validity.valid).toBe(
      true,
    );
    expect(api.to('POST', '/api/v1/links')).toHaveLength(0);
  });

  it("forgets a field's messages once it changes, and shows only those of the next answer", async () => {
    const answers = [
      { alias: ['The alias has already been taken.'] },
      { url: ['The url must be an http or https URL.'] },
    ];
    await renderSignedIn(<LinkForm onSaved={() => undefined} onCancel={() => undefined} />, {
      routes: {
        ...choices,
        'POST /api/v1/links': () => json(422, { message: answers.shift(), status: 422 }),
      },
    });
    const user = userEvent.setup({ delay: null });
    const alias = screen.getByLabelText('Alias');

    await user.type(screen.getByLabelText('Destination URL'), 'https://example.com/');
    await user.type(alias, 'taken');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(alias).toHaveAccessibleDescription(expect.stringContaining('The alias has already been taken.')),
    );

    await user.type(alias, '2');
    expect(alias).not.toHaveAccessibleDescription(expect.stringContaining('already been taken'));
    expect(alias).not.toHaveAttribute('aria-invalid');

    await user.click(screen.getByRole('button', { name: 'Save' }));
    const url = screen.getByLabelText('Destination URL');
    await waitFor(() => expect(url).toHaveAttribute('aria-invalid', 'true'));
    expect(screen.queryByText('The alias has already been taken.')).not.toBeInTheDocument();
  });
});

describe('the social preview card', () => {
  it('shows how the shared link will look, from what is typed, as text', async () => {
    await renderSignedIn(<LinkForm onSaved={() => undefined} onCancel={() => undefined} />, {
      routes: choices,
    });
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText('Destination URL'), 'https://shop.example.com/sale');
    await user.type(screen.getByLabelText('Preview title'), '<b>Spring</b>');
    await user.type(screen.getByLabelText('Preview description'), 'Half off');
    await user.type(screen.getByLabelText('Preview image (https)'), 'https://cdn.example.com/card.png');

    const card = screen.getByRole('figure', { name: 'How the card will look' });
    expect(within(card).getByText('<b>Spring</b>')).toBeInTheDocument();
    expect(within(card).getByText('Half off')).toBeInTheDocument();
    expect(within(card).getByText('shop.example.com')).toBeInTheDocument();
    expect(card.querySelector('img')).toHaveAttribute('src', 'https://cdn.example.com/card.png');
    expect(card.querySelector('b')).toBeNull();
  });
});

describe('a duplicated link', () => {
  it("starts a new link from another's values, without its alias, passwords or archive, and creates it with POST", async () => {
    const original = link({
      title: 'Spring sale',
      redirect_password: true,
      tags: ['news'],
      archived: 1,
      utm_source: 'newsletter',
      targets_type: 'rotations',
      targets: [
        { value: 'https://a.example/', weight: 3 },
        { value: 'https://b.example/', weight: 1 },
      ],
    });
    const { api } = await renderSignedIn(
      <LinkForm copyOf={original} onSaved={() => undefined} onCancel={() => undefined} />,
      { routes: { ...choices, 'POST /api/v1/links': () => json(201, { data: link(), status: 200 }) } },
    );
    const user = userEvent.setup({ delay: null });
    await screen.findByRole('option', { name: 'go.example.com' });
    expect(screen.getByLabelText('Alias')).toHaveValue('');
    expect(screen.getByLabelText('Title')).toHaveValue('Spring sale');
    expect(screen.getByLabelText('Domain')).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.to('POST', '/api/v1/links')).toHaveLength(1));
    const sent = bodyOf(api.to('POST', '/api/v1/links')[0]) as Record<string, unknown>;
    expect(sent).toMatchObject({
      url: 'https://example.com/spring',
      title: 'Spring sale',
      domain_id: 1,
      utm_source: 'newsletter',
      targets_type: 'rotations',
      targets: [{ value: 'https://a.example/', weight: 3 }, { value: 'https://b.example/' }],
      tags: ['news'],
    });
    expect(sent).not.toHaveProperty('alias');
    expect(sent).not.toHaveProperty('archived');
    expect(sent).not.toHaveProperty('redirect_password');
    expect(api.to('PUT', '/api/v1/links/5')).toHaveLength(0);
  });
});
