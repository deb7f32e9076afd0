import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Link, LinkHealth, Scope } from '../src/api/types';
import LinksPage from '../src/features/links/LinksPage';
import { json, listOf, type Routes } from './api';
import { link, session, tag } from './fixtures';
import { renderSignedIn } from './render';

const tagged = link({ tags: ['news', 'Launch'] });

const withHealth = (health: LinkHealth): Link => link({ health });

async function renderLinks(path: string, routes: Routes = {}, scopes?: Scope[]) {
  const view = await renderSignedIn(<LinksPage />, {
    path,
    session: scopes && session(scopes),
    routes: {
      'GET /api/v1/links': listOf([tagged]),
      'GET /api/v1/tags': listOf([tag({ name: 'News', color: 4 }), tag({ id: 5, name: 'launch', color: 2 })]),
      ...routes,
    },
  });
  await screen.findByRole('table', { name: 'Links' });
  const lastQuery = () => view.api.to('GET', '/api/v1/links').at(-1)?.url.searchParams;
  return { ...view, lastQuery, user: userEvent.setup({ delay: null }) };
}

const bodyOf = (request: { body: string | null } | undefined) =>
  JSON.parse(request?.body ?? 'null') as unknown;

describe('tags in the links list', () => {
  it("shows each link's tags as chips in their tag's colour", async () => {
    await renderLinks('/links');
    const row = screen.getByRole('rowheader', { name: /Spring sale/ }).closest('tr')!;
    const cell = within(row).getByRole('list');
    expect(
      within(cell)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['news (Red)', 'Launch (Green)']);
    expect(cell.closest('td')).toHaveAttribute('data-label', 'Tags');
  });

  it('filters by one tag or more, kept in the address as the API takes them (tag=a&tag=b)', async () => {
    const { user, lastQuery, location } = await renderLinks('/links?tag=news');
    expect(lastQuery()?.getAll('tag')).toEqual(['news']);
    const filter = screen.getByRole('combobox', { name: 'Tags' });
    expect(screen.getByRole('button', { name: 'Remove tag news' })).toBeInTheDocument();

    await user.type(filter, 'launch{Enter}');
    await waitFor(() => expect(lastQuery()?.getAll('tag')).toEqual(['news', 'launch']));
    expect(location.history.at(-1)).toBe('/links?tag=news&tag=launch');

    await user.click(screen.getByRole('button', { name: 'Remove tag news' }));
    await waitFor(() => expect(lastQuery()?.getAll('tag')).toEqual(['launch']));
    await user.click(screen.getByRole('button', { name: 'Remove tag launch' }));
    await waitFor(() => expect(lastQuery()?.has('tag')).toBe(false));
    expect(location.history.at(-1)).toBe('/links');
  });

  it("edits a link's tags from its row, sending the tags alone", async () => {
    let saved = tagged;
    const { api, user } = await renderLinks('/links', {
      'GET /api/v1/links': () => json(200, listOf([saved])),
      'PATCH /api/v1/links/:id': (request) => {
        saved = { ...tagged, ...(bodyOf(request) as Partial<Link>) };
        return json(200, { data: saved, status: 200 });
      },
    });

    await user.click(screen.getByRole('button', { name: 'Edit tags https://sho.rt/spring' }));
    const dialog = screen.getByRole('dialog', { name: 'Tags of https://sho.rt/spring' });
    const input = within(dialog).getByRole('combobox', { name: 'Tags' });
    // The dialog starts at the field, not at the first chip's remove button.
    expect(input).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Remove tag news' }));
    await user.type(input, 'promo{Enter}');
    // Enter on the emptied field saves, as in any form.
    await user.keyboard('{Enter}');

    await waitFor(() => expect(api.to('PATCH', '/api/v1/links/5')).toHaveLength(1));
    expect(bodyOf(api.to('PATCH', '/api/v1/links/5')[0])).toEqual({ tags: ['Launch', 'promo'] });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('Tags saved: https://sho.rt/spring', { selector: '.toast' })).toBeInTheDocument();
    expect(await screen.findByText('promo')).toBeInTheDocument();
    expect(api.to('PUT', '/api/v1/links/5')).toHaveLength(0);
  });

  it('offers to add tags to a link without any', async () => {
    await renderLinks('/links', { 'GET /api/v1/links': listOf([link()]) });
    expect(screen.getByRole('button', { name: 'Add tags https://sho.rt/spring' })).toBeInTheDocument();
  });

  it('shows a reader the tags, with no way to change them or the archive', async () => {
    await renderLinks('/links', {}, ['links.read']);
    expect(screen.getByText('news')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^(Edit tags|Add tags|Archive)/ })).not.toBeInTheDocument();
  });
});

describe('the archive', () => {
  it('archives a link from its row, with a PATCH of `archived` alone', async () => {
    let archived: 0 | 1 = 0;
    const { api, user } = await renderLinks('/links', {
      'GET /api/v1/links': () => json(200, listOf(archived === 1 ? [] : [link()])),
      'PATCH /api/v1/links/:id': (request) => {
        archived = (bodyOf(request) as { archived: 0 | 1 }).archived;
        return json(200, { data: link({ archived }), status: 200 });
      },
    });

    await user.click(screen.getByRole('button', { name: 'Archive https://sho.rt/spring' }));

    await waitFor(() => expect(api.to('PATCH', '/api/v1/links/5')).toHaveLength(1));
    expect(bodyOf(api.to('PATCH', '/api/v1/links/5')[0])).toEqual({ archived: 1 });
    expect(await screen.findByText('No links yet.')).toBeInTheDocument();
    expect(
      screen.getByText('Link archived: https://sho.rt/spring', { selector: '.toast' }),
    ).toBeInTheDocument();
  });

  it('shows the archive with archived=1, each link badged, and takes one out of it', async () => {
    const { api, user, lastQuery, location } = await renderLinks('/links', {
      'GET /api/v1/links': (request) =>
        json(200, listOf([link({ archived: request.url.searchParams.get('archived') === '1' ? 1 : 0 })])),
      'PATCH /api/v1/links/:id': () => json(200, { data: link(), status: 200 }),
    });
    expect(lastQuery()?.has('archived')).toBe(false);
    expect(screen.queryByText('Archived', { selector: '.badge' })).not.toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Show'), 'Archived links');

    await waitFor(() => expect(lastQuery()?.get('archived')).toBe('1'));
    expect(location.history.at(-1)).toBe('/links?archived=1');
    const row = (await screen.findByText('Archived', { selector: '.badge' })).closest('tr')!;
    await user.click(within(row).getByRole('button', { name: 'Unarchive https://sho.rt/spring' }));
    await waitFor(() => expect(api.to('PATCH', '/api/v1/links/5')).toHaveLength(1));
    expect(bodyOf(api.to('PATCH', '/api/v1/links/5')[0])).toEqual({ archived: 0 });
  });

  it('exports what the list shows: the archive and the tags too', async () => {
    const { api, user } = await renderLinks('/links?archived=1&tag=news&tag=launch', {
      'GET /api/v1/links/export': () => new Response('id\n', { headers: { 'content-type': 'text/csv' } }),
    });

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    await waitFor(() => expect(api.to('GET', '/api/v1/links/export')).toHaveLength(1));
    const query = api.to('GET', '/api/v1/links/export')[0]?.url.searchParams;
    expect(query?.get('archived')).toBe('1');
    expect(query?.getAll('tag')).toEqual(['news', 'launch']);
  });
});

describe('link health', () => {
  it('badges a broken link, saying what was answered and when to screen readers and in its tooltip', async () => {
    await renderLinks('/links', {
      'GET /api/v1/links': listOf([
        withHealth({ status: 'broken', http_status: 404, checked_at: '2026-11-20T09:00:00.000000Z' }),
      ]),
    });

    const badge = screen.getByText('Broken', { selector: '.badge' });
    const detail = 'The destination answered HTTP 404, checked Nov 20, 2026, 10:00 AM.';
    expect(badge).toHaveTextContent(`Broken ${detail}`);
    expect(within(badge).getByText(detail)).toHaveClass('sr-only');
    expect(badge).toHaveAttribute('title', detail);
  });

  it('says an unreachable destination, and shows nothing for a link found healthy or not yet checked', async () => {
    await renderLinks('/links', {
      'GET /api/v1/links': listOf([
        { ...withHealth({ status: 'broken', http_status: null, checked_at: null }), id: 1 },
        { ...withHealth({ status: 'ok', http_status: 200, checked_at: null }), id: 2 },
        { ...withHealth({ status: 'unknown', http_status: null, checked_at: null }), id: 3 },
        { ...link(), id: 4 },
      ]),
    });

    const badges = screen.getAllByText('Broken', { selector: '.badge' });
    expect(badges).toHaveLength(1);
    expect(badges[0]).toHaveAttribute('title', 'The destination could not be reached.');
  });

  it('lists the broken links alone with health=broken', async () => {
    const { user, lastQuery, location } = await renderLinks('/links');
    expect(lastQuery()?.has('health')).toBe(false);

    await user.selectOptions(screen.getByLabelText('Health'), 'Broken links only');

    await waitFor(() => expect(lastQuery()?.get('health')).toBe('broken'));
    expect(location.history.at(-1)).toBe('/links?health=broken');
  });
});
