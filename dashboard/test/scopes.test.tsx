import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { Shell } from '../src/app/Shell';
import LinksPage from '../src/features/links/LinksPage';
import SpacesPage from '../src/features/spaces/SpacesPage';
import { hasScope } from '../src/session/scopes';
import { json, listOf } from './api';
import { link, session, space } from './fixtures';
import { renderSignedIn } from './render';

describe('scopes', () => {
  it('a write scope includes its read, and nothing else', () => {
    expect(hasScope(['links.write'], 'links.read')).toBe(true);
    expect(hasScope(['links.write'], 'links.write')).toBe(true);
    expect(hasScope(['links.read'], 'links.write')).toBe(false);
    expect(hasScope(['links.write'], 'spaces.read')).toBe(false);
    expect(hasScope(['stats.read'], 'stats.read')).toBe(true);
  });

  it('a links.read session sees the links but no control that would change one', async () => {
    await renderSignedIn(<LinksPage />, {
      session: session(['links.read']),
      routes: { 'GET /api/v1/links': listOf([link()]) },
    });

    const table = await screen.findByRole('table', { name: 'Links' });
    expect(within(table).getByRole('link', { name: 'https://sho.rt/spring' })).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'Copy https://sho.rt/spring' })).toBeInTheDocument();
    expect(within(table).getByRole('button', { name: 'QR code https://sho.rt/spring' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New link' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /^Edit/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();
    // Without stats.read, no way into the stats either.
    expect(screen.queryByRole('link', { name: /^Stats/ })).not.toBeInTheDocument();
  });

  it('a links.write session gets them', async () => {
    await renderSignedIn(<LinksPage />, {
      session: session(['links.write', 'stats.read']),
      routes: { 'GET /api/v1/links': listOf([link()]) },
    });

    await screen.findByRole('table', { name: 'Links' });
    expect(screen.getByRole('button', { name: 'New link' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Edit https://sho.rt/spring' })).toHaveAttribute(
      'href',
      '/links/5/edit',
    );
    expect(screen.getByRole('button', { name: 'Delete https://sho.rt/spring' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Stats https://sho.rt/spring' })).toBeInTheDocument();
  });

  it('hides the write controls of every resource the session may only read', async () => {
    await renderSignedIn(<SpacesPage />, {
      session: session(['spaces.read']),
      routes: { 'GET /api/v1/spaces': listOf([space]) },
    });

    await screen.findByRole('table', { name: 'Spaces' });
    expect(screen.queryByRole('button', { name: 'New space' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^(Edit|Delete)/ })).not.toBeInTheDocument();
  });

  it('leaves out of the navigation the screens the session cannot read', async () => {
    await renderSignedIn(
      <Shell>
        <h1>Home</h1>
      </Shell>,
      { session: session(['links.read', 'stats.read', 'pixels.write']) },
    );

    const nav = screen.getByRole('navigation', { name: 'Main' });
    const entries = within(nav)
      .getAllByRole('link')
      .map((entry) => entry.textContent);
    expect(entries).toEqual(['Links', 'Analytics', 'Tags', 'UTM templates', 'Pixels', 'Import and export']);
  });
});

describe('deleting a link', () => {
  it('asks first, deletes on confirmation, and gives focus back', async () => {
    let deleted = false;
    const { api } = await renderSignedIn(<LinksPage />, {
      routes: {
        'GET /api/v1/links': () => json(200, listOf(deleted ? [] : [link()])),
        'DELETE /api/v1/links/:id': () => {
          deleted = true;
          return json(200, { id: 5, object: 'link', deleted: true, status: 200 });
        },
      },
    });
    const user = userEvent.setup({ delay: null });
    const remove = await screen.findByRole('button', { name: 'Delete https://sho.rt/spring' });

    await user.click(remove);
    let dialog = screen.getByRole('dialog', { name: 'Delete this link?' });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(remove).toHaveFocus();
    expect(api.to('DELETE', '/api/v1/links/5')).toHaveLength(0);

    await user.click(remove);
    dialog = screen.getByRole('dialog', { name: 'Delete this link?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(api.to('DELETE', '/api/v1/links/5')).toHaveLength(1);
    expect(await screen.findByText('No links yet.')).toBeInTheDocument();
  });

  it('keeps Tab inside the dialog', async () => {
    await renderSignedIn(<LinksPage />, { routes: { 'GET /api/v1/links': listOf([link()]) } });
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Delete https://sho.rt/spring' }));
    const dialog = screen.getByRole('dialog');
    const [cancel, confirm] = within(dialog).getAllByRole('button');

    confirm?.focus();
    await user.tab();
    expect(cancel).toHaveFocus();
    await user.tab({ shift: true });
    expect(confirm).toHaveFocus();
  });
});

describe('the links list', () => {
  it('copies a short URL and says so', async () => {
    await renderSignedIn(<LinksPage />, { routes: { 'GET /api/v1/links': listOf([link()]) } });
    const user = userEvent.setup({ delay: null });

    await user.click(await screen.findByRole('button', { name: 'Copy https://sho.rt/spring' }));

    await expect(navigator.clipboard.readText()).resolves.toBe('https://sho.rt/spring');
    expect(screen.getByRole('button', { name: 'Copied https://sho.rt/spring' })).toBeInTheDocument();
    expect(screen.getByText('Copied https://sho.rt/spring', { selector: '.toast' })).toBeInTheDocument();
  });

  it('sends the filters, order and page to the API, never fetching more than a page', async () => {
    const { api, location } = await renderSignedIn(<LinksPage />, {
      path: '/links?status=2&sort_by=clicks&sort=asc&per_page=100&page=3&space_id=0',
      routes: { 'GET /api/v1/links': listOf([link()], 3, 9, 100) },
    });
    await screen.findByRole('table', { name: 'Links' });

    const query = api.to('GET', '/api/v1/links')[0]?.url.searchParams;
    expect(Object.fromEntries(query ?? [])).toEqual({
      status: '2',
      sort_by: 'clicks',
      sort: 'asc',
      per_page: '100',
      page: '3',
      space_id: '0',
      search_by: 'title',
    });
    expect(screen.getByText('Page 3 of 9')).toBeInTheDocument();

    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText('Search'), 'sale');
    await waitFor(() =>
      expect(api.to('GET', '/api/v1/links').at(-1)?.url.searchParams.get('search')).toBe('sale'),
    );
    // One request for the search once typing paused, not one per key; a new search starts at page 1.
    expect(api.to('GET', '/api/v1/links')).toHaveLength(2);
    expect(api.to('GET', '/api/v1/links').at(-1)?.url.searchParams.get('page')).toBe('1');
    expect(location.history.at(-1)).toContain('search=sale');
  });

  it('follows the address when it changes by other means, without sending the old search again', async () => {
    const { api, location } = await renderSignedIn(<LinksPage />, {
      path: '/links?search=sale',
      routes: { 'GET /api/v1/links': listOf([link()]) },
    });
    await screen.findByRole('table', { name: 'Links' });
    expect(screen.getByLabelText('Search')).toHaveValue('sale');

    act(() => location.navigate('/links'));

    await waitFor(() => expect(screen.getByLabelText('Search')).toHaveValue(''));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(location.history.at(-1)).toBe('/links');
    expect(api.to('GET', '/api/v1/links').at(-1)?.url.searchParams.has('search')).toBe(false);
  });
});
