import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Tag } from '../src/api/types';
import TagsPage from '../src/features/tags/TagsPage';
import { json, listOf } from './api';
import { session, tag } from './fixtures';
import { renderSignedIn } from './render';

const bodyOf = (request: { body: string | null } | undefined) =>
  JSON.parse(request?.body ?? 'null') as unknown;

/** The tags page against a stand-in API that keeps what it is sent. */
async function renderTagsPage(path = '/tags') {
  let tags: Tag[] = [tag({ id: 1, name: 'Spring sale', color: 3, links_count: 7 })];
  const view = await renderSignedIn(<TagsPage />, {
    path,
    routes: {
      'GET /api/v1/tags': () => json(200, listOf(tags)),
      'POST /api/v1/tags': (request) => {
        const created = tag({ id: 2, links_count: 0, ...(bodyOf(request) as Partial<Tag>) });
        tags = [...tags, created];
        return json(201, { data: created, status: 201 });
      },
      'PUT /api/v1/tags/:id': (request) => {
        const id = Number(request.url.pathname.split('/').at(-1));
        tags = tags.map((one) => (one.id === id ? { ...one, ...(bodyOf(request) as Partial<Tag>) } : one));
        return json(200, { data: tags.find((one) => one.id === id), status: 200 });
      },
      'DELETE /api/v1/tags/:id': (request) => {
        const id = Number(request.url.pathname.split('/').at(-1));
        tags = tags.filter((one) => one.id !== id);
        return json(200, { id, object: 'tag', deleted: true, status: 200 });
      },
    },
  });
  await screen.findByRole('table', { name: 'Tags' });
  return { ...view, user: userEvent.setup({ delay: null }) };
}

describe('the tags page', () => {
  it('lists the tags with their colour and a way to their links, searched, sorted and paged by the API', async () => {
    const { api, user } = await renderTagsPage('/tags?sort_by=name&sort=asc');

    const header = screen.getByRole('rowheader', { name: /^Spring sale/ });
    // The colour is named for those who cannot see it.
    expect(header).toHaveTextContent('Spring sale (Yellow)');
    const row = header.closest('tr')!;
    expect(within(row).getByRole('link', { name: '7 links tagged Spring sale' })).toHaveAttribute(
      'href',
      '/links?tag=Spring+sale',
    );
    expect(Object.fromEntries(api.to('GET', '/api/v1/tags')[0]?.url.searchParams ?? [])).toEqual({
      sort_by: 'name',
      sort: 'asc',
      per_page: '25',
      page: '1',
    });

    await user.type(screen.getByLabelText('Search'), 'spr');
    await waitFor(() =>
      expect(api.to('GET', '/api/v1/tags').at(-1)?.url.searchParams.get('search')).toBe('spr'),
    );
    expect(api.to('GET', '/api/v1/tags').at(-1)?.url.searchParams.get('search_by')).toBe('name');
  });

  it('creates, renames and recolours, and deletes a tag once asked', async () => {
    const { api, user } = await renderTagsPage();

    await user.click(screen.getAllByRole('button', { name: 'New tag' })[0]!);
    let dialog = screen.getByRole('dialog', { name: 'New tag' });
    await user.type(within(dialog).getByLabelText('Name'), 'Launch');
    await user.click(within(dialog).getByLabelText('Purple'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('POST', '/api/v1/tags')).toHaveLength(1));
    expect(bodyOf(api.to('POST', '/api/v1/tags')[0])).toEqual({ name: 'Launch', color: 5 });
    expect(await screen.findByRole('rowheader', { name: /^Launch/ })).toHaveTextContent('Launch (Purple)');
    expect(screen.getByText('Tag saved: Launch', { selector: '.toast' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Edit Spring sale' }));
    dialog = screen.getByRole('dialog', { name: 'Edit tag Spring sale' });
    expect(within(dialog).getByText(/A new name is the name on every link/)).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Yellow')).toBeChecked();
    const name = within(dialog).getByLabelText('Name');
    await user.clear(name);
    await user.type(name, 'Summer sale');
    await user.click(within(dialog).getByLabelText('Red'));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.to('PUT', '/api/v1/tags/1')).toHaveLength(1));
    expect(bodyOf(api.to('PUT', '/api/v1/tags/1')[0])).toEqual({ name: 'Summer sale', color: 4 });
    expect(await screen.findByRole('rowheader', { name: /^Summer sale/ })).toHaveTextContent(
      'Summer sale (Red)',
    );

    await user.click(screen.getByRole('button', { name: 'Delete Summer sale' }));
    dialog = screen.getByRole('dialog', { name: 'Delete this tag?' });
    expect(dialog).toHaveTextContent('Summer sale will be deleted and taken off every link. The links stay.');
    expect(api.to('DELETE', '/api/v1/tags/1')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.to('DELETE', '/api/v1/tags/1')).toHaveLength(1));
    await waitFor(() =>
      expect(screen.queryByRole('rowheader', { name: /Summer sale/ })).not.toBeInTheDocument(),
    );
    expect(screen.getByText('Tag deleted: Summer sale', { selector: '.toast' })).toBeInTheDocument();
  });

  it("shows a 422's message beside the name", async () => {
    const { user } = await renderSignedIn(<TagsPage />, {
      path: '/tags',
      routes: {
        'GET /api/v1/tags': listOf([]),
        'POST /api/v1/tags': () =>
          json(422, { message: { name: ['The name has already been taken.'] }, status: 422 }),
      },
    }).then((view) => ({ ...view, user: userEvent.setup({ delay: null }) }));

    await user.click((await screen.findAllByRole('button', { name: 'New tag' }))[0]!);
    const name = screen.getByLabelText('Name');
    await user.type(name, 'news');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(name).toHaveAccessibleDescription('The name has already been taken.'));
  });

  it('gives a links.read session the list alone', async () => {
    await renderSignedIn(<TagsPage />, {
      path: '/tags',
      session: session(['links.read']),
      routes: { 'GET /api/v1/tags': listOf([tag()]) },
    });
    await screen.findByRole('table', { name: 'Tags' });
    expect(screen.queryByRole('button', { name: /^(New tag|Edit|Delete)/ })).not.toBeInTheDocument();
  });
});
