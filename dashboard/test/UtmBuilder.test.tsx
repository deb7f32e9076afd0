import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { UtmTemplate } from '../src/api/types';
import { LinkForm } from '../src/features/links/LinkForm';
import { withUtm } from '../src/features/utm/utm';
import UtmTemplatesPage from '../src/features/utm/UtmTemplatesPage';
import { json, listOf, type Routes } from './api';
import { link, utmTemplate } from './fixtures';
import { renderSignedIn } from './render';

const bodyOf = (request: { body: string | null } | undefined) =>
  JSON.parse(request?.body ?? 'null') as unknown;

/** The five fields' values, by their labels. */
const fields = () =>
  Object.fromEntries(
    ['Source', 'Medium', 'Campaign', 'Term', 'Content'].map((label) => [
      label,
      screen.getByLabelText<HTMLInputElement>(label).value,
    ]),
  );

describe('the final URL of a visit', () => {
  it("merges the link's parameters into the destination's query as the service does", () => {
    // Those the destination has take the link's value in the first one's place; the others follow, in order.
    expect(
      withUtm('https://example.com/p?utm_source=old&a=1&utm_source=older#top', {
        utm_medium: 'email',
        utm_source: 'news letter',
      }),
    ).toBe('https://example.com/p?utm_source=news%20letter&a=1&utm_medium=email#top');
    // The destination's own parameters keep the text they were written with.
    expect(withUtm('https://example.com/?q=a+b&sig=x%2Fy', { utm_campaign: 'spring' })).toBe(
      'https://example.com/?q=a+b&sig=x%2Fy&utm_campaign=spring',
    );
    // Values are trimmed, empty ones left out.
    expect(
      withUtm('https://example.com/', { utm_source: '  ', utm_term: ' shoes ', utm_content: null }),
    ).toBe('https://example.com/?utm_term=shoes');
    expect(withUtm('https://example.com/?a=1', {})).toBe('https://example.com/?a=1');
    expect(withUtm('not a url', { utm_source: 'x' })).toBeNull();
  });
});

/** The link form with the workspace's templates, and the templates it is sent. */
async function renderForm(templates: UtmTemplate[], routes: Routes = {}) {
  const view = await renderSignedIn(<LinkForm onSaved={() => undefined} onCancel={() => undefined} />, {
    routes: {
      'GET /api/v1/utm-templates': () => json(200, listOf(templates)),
      'POST /api/v1/links': () => json(201, { data: link(), status: 201 }),
      ...routes,
    },
  });
  return { ...view, user: userEvent.setup({ delay: null }) };
}

describe('the UTM builder', () => {
  it('fills the five fields from a template, emptying those it sets none of', async () => {
    const { user } = await renderForm([
      utmTemplate({ id: 6, name: 'Newsletter', utm_source: 'newsletter', utm_medium: 'email' }),
      utmTemplate({ id: 7, name: 'Flyer', utm_source: 'print', utm_medium: null, utm_campaign: 'autumn' }),
    ]);
    await user.type(screen.getByLabelText('Campaign'), 'leftover');
    const picker = await screen.findByLabelText('Template');
    expect(screen.getByRole('button', { name: 'Apply' })).toBeDisabled();

    await user.selectOptions(picker, 'Newsletter');
    await user.click(screen.getByRole('button', { name: 'Apply' }));

    expect(fields()).toEqual({ Source: 'newsletter', Medium: 'email', Campaign: '', Term: '', Content: '' });
    expect(screen.getByText('Template applied: Newsletter', { selector: '.toast' })).toBeInTheDocument();

    await user.selectOptions(picker, 'Flyer');
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(fields()).toEqual({ Source: 'print', Medium: '', Campaign: 'autumn', Term: '', Content: '' });
  });

  it('saves the fields as a template under a name asked in place, without saving the link', async () => {
    const { api, user } = await renderForm([], {
      'POST /api/v1/utm-templates': (request) =>
        json(201, { data: utmTemplate({ id: 9, ...(bodyOf(request) as object) }), status: 201 }),
    });
    const saveAs = screen.getByRole('button', { name: 'Save as template' });
    // Nothing to save yet.
    expect(saveAs).toBeDisabled();
    expect(saveAs).toHaveAccessibleDescription('Fill in a parameter to save them as a template.');

    await user.type(screen.getByLabelText('Source'), ' qr ');
    await user.type(screen.getByLabelText('Campaign'), 'autumn');
    await user.click(saveAs);
    const prompt = screen.getByRole('group', { name: 'Save as template' });
    const name = within(prompt).getByLabelText('Template name');
    expect(name).toHaveFocus();
    // Enter here saves the template, not the link.
    await user.type(name, 'Posters{Enter}');

    await waitFor(() => expect(api.to('POST', '/api/v1/utm-templates')).toHaveLength(1));
    expect(bodyOf(api.to('POST', '/api/v1/utm-templates')[0])).toEqual({
      name: 'Posters',
      utm_source: 'qr',
      utm_medium: null,
      utm_campaign: 'autumn',
      utm_term: null,
      utm_content: null,
    });
    expect(api.to('POST', '/api/v1/links')).toHaveLength(0);
    await waitFor(() =>
      expect(screen.queryByRole('group', { name: 'Save as template' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('button', { name: 'Save as template' })).toHaveFocus();
    expect(screen.getByText('Template saved: Posters', { selector: '.toast' })).toBeInTheDocument();
    // The list is read again: the new template is offered, chosen.
    await waitFor(() => expect(api.to('GET', '/api/v1/utm-templates').length).toBeGreaterThan(1));
  });

  it("shows a refusal of the template in the prompt, the link's form left as it was", async () => {
    const { user } = await renderForm([], {
      'POST /api/v1/utm-templates': () =>
        json(422, { message: { name: ['The name has already been taken.'] }, status: 422 }),
    });
    await user.type(screen.getByLabelText('Source'), 'qr');
    await user.click(screen.getByRole('button', { name: 'Save as template' }));
    const name = screen.getByLabelText('Template name');
    await user.type(name, 'Posters');
    await user.click(screen.getByRole('button', { name: 'Save template' }));

    await waitFor(() => expect(name).toHaveAccessibleDescription('The name has already been taken.'));
    await user.click(
      within(screen.getByRole('group', { name: 'Save as template' })).getByRole('button', { name: 'Cancel' }),
    );
    expect(screen.queryByLabelText('Template name')).not.toBeInTheDocument();
    expect(screen.getByLabelText('Source')).toHaveValue('qr');
  });

  it('previews where a visit goes, the link’s parameters replacing those of the destination', async () => {
    const { user } = await renderForm([]);
    const preview = () => screen.getByText('Visitors go to').closest('p');
    expect(preview()).toHaveTextContent('Enter a destination URL to see it here with its parameters.');

    await user.type(screen.getByLabelText('Destination URL'), 'shop.example.com/p?utm_source=old&ref=7');
    expect(preview()).toHaveTextContent('https://shop.example.com/p?utm_source=old&ref=7');

    await user.type(screen.getByLabelText('Source'), 'newsletter');
    await user.type(screen.getByLabelText('Medium'), 'e mail');
    expect(preview()).toHaveTextContent(
      'https://shop.example.com/p?utm_source=newsletter&ref=7&utm_medium=e%20mail',
    );
  });
});

describe('the UTM templates page', () => {
  it('lists the templates with their parameters, and creates one', async () => {
    let templates = [utmTemplate()];
    const { api } = await renderSignedIn(<UtmTemplatesPage />, {
      path: '/utm-templates',
      routes: {
        'GET /api/v1/utm-templates': () => json(200, listOf(templates)),
        'POST /api/v1/utm-templates': (request) => {
          const created = utmTemplate({ id: 8, ...(bodyOf(request) as Partial<UtmTemplate>) });
          templates = [...templates, created];
          return json(201, { data: created, status: 201 });
        },
      },
    });
    const user = userEvent.setup({ delay: null });
    const row = (await screen.findByRole('rowheader', { name: 'Newsletter' })).closest('tr')!;
    expect(
      within(row)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['utm_source=newsletter', 'utm_medium=email']);

    await user.click(screen.getAllByRole('button', { name: 'New template' })[0]!);
    const dialog = screen.getByRole('dialog', { name: 'New template' });
    await user.type(within(dialog).getByLabelText('Name'), 'Social');
    await user.type(within(dialog).getByLabelText('Source'), 'mastodon');
    await user.type(within(dialog).getByLabelText('Content'), 'bio');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(api.to('POST', '/api/v1/utm-templates')).toHaveLength(1));
    expect(bodyOf(api.to('POST', '/api/v1/utm-templates')[0])).toEqual({
      name: 'Social',
      utm_source: 'mastodon',
      utm_medium: null,
      utm_campaign: null,
      utm_term: null,
      utm_content: 'bio',
    });
    expect(await screen.findByRole('rowheader', { name: 'Social' })).toBeInTheDocument();
  });
});
