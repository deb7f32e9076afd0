import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { Link, Space } from '../src/api/types';
import LinksPage from '../src/features/links/LinksPage';
import { json, listOf, type Recorded, type Routes } from './api';
import { link } from './fixtures';
import { renderSignedIn } from './render';

const marketing: Space = {
  id: 7,
  name: 'Marketing',
  color: 1,
  links_count: 0,
  created_at: '2026-11-21T10:05:00.000000Z',
  updated_at: '2026-11-21T10:05:00.000000Z',
};

/** Link `id` of the stand-in list: its own alias and short URL. */
const linkNo = (id: number): Link =>
  link({ id, alias: `l${id}`, short_url: `https://sho.rt/l${id}`, title: `L${id}` });

/** Two pages of 25 links and 12 more: 37 in all, the page given by the request's `page`. */
function pages(request: Recorded) {
  const page = Number(request.url.searchParams.get('page') ?? '1');
  const ids =
    page === 1 ? Array.from({ length: 25 }, (_, i) => i + 1) : Array.from({ length: 12 }, (_, i) => i + 26);
  const answer = listOf(ids.map(linkNo), page, 2);
  return json(200, { ...answer, meta: { ...answer.meta, total: 37 } });
}

async function renderLinks(path: string, routes: Routes = {}) {
  const view = await renderSignedIn(<LinksPage />, {
    path,
    routes: {
      'GET /api/v1/links': pages,
      'GET /api/v1/tags': listOf([]),
      'GET /api/v1/spaces': listOf([marketing]),
      'PATCH /api/v1/links/bulk': { data: { updated: 37 }, status: 200 },
      'DELETE /api/v1/links/bulk': { data: { deleted: 2 }, status: 200 },
      ...routes,
    },
  });
  await screen.findByRole('table', { name: 'Links' });
  return { ...view, user: userEvent.setup({ delay: null }) };
}

const bodyOf = (request: { body: string | null } | undefined) =>
  JSON.parse(request?.body ?? 'null') as unknown;

describe('bulk actions on the links list', () => {
  it('keeps a selection across pages, counts it aloud, and moves those links by id in one request', async () => {
    const { api, user, location } = await renderLinks('/links');
    await user.click(screen.getByRole('checkbox', { name: 'Select https://sho.rt/l2' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select https://sho.rt/l3' }));
    expect(screen.getByText('2 selected', { selector: '[role="status"]' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: /^Next/ }));
    await waitFor(() => expect(location.history.at(-1)).toBe('/links?page=2'));
    await user.click(await screen.findByRole('checkbox', { name: 'Select https://sho.rt/l30' }));
    const bar = screen.getByRole('region', { name: 'Selected links' });
    expect(within(bar).getByText('3 selected')).toBeInTheDocument();

    await user.click(within(bar).getByRole('button', { name: 'Move to space' }));
    const dialog = screen.getByRole('dialog', { name: 'Move to space' });
    expect(within(dialog).getByText('Move 3 links to No space?')).toBeInTheDocument();
    await user.selectOptions(within(dialog).getByLabelText('Space'), 'Marketing');
    expect(within(dialog).getByText('Move 3 links to Marketing?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Move to space' }));

    await waitFor(() => expect(api.to('PATCH', '/api/v1/links/bulk')).toHaveLength(1));
    expect(bodyOf(api.to('PATCH', '/api/v1/links/bulk')[0])).toEqual({
      ids: [2, 3, 30],
      changes: { space_id: 7 },
    });
    expect(await screen.findByText('37 links changed.', { selector: '.toast' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Selected links' })).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('offers every link matching the filter once the page is selected, and sends the filter', async () => {
    const { api, user } = await renderLinks('/links?tag=news&space_id=0');
    // The table's header box; the one above the list stands in for it where rows become cards (no CSS here).
    const table = screen.getByRole('table');
    await user.click(within(table).getByRole('checkbox', { name: 'Select every link on this page' }));
    expect(screen.getByText('25 selected', { selector: '[role="status"]' })).toBeInTheDocument();
    // Links picked by hand cannot be exported: the export takes the filters alone, and says so.
    const exportButton = screen.getByRole('button', { name: 'Export CSV', description: /select all links/ });
    expect(exportButton).toHaveAttribute('aria-disabled', 'true');

    await user.click(screen.getByRole('button', { name: 'Select all 37 links matching the filter' }));
    expect(screen.getByText('All 37 links matching the filter are selected.')).toBeInTheDocument();
    expect(screen.getByText('37 selected', { selector: '[role="status"]' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Archive' }));
    const dialog = screen.getByRole('dialog', { name: 'Archive' });
    expect(within(dialog).getByText('Archive 37 links?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Archive' }));

    await waitFor(() => expect(api.to('PATCH', '/api/v1/links/bulk')).toHaveLength(1));
    expect(bodyOf(api.to('PATCH', '/api/v1/links/bulk')[0])).toEqual({
      filter: { search_by: 'title', status: 0, space_id: 0, tag: ['news'] },
      changes: { archived: 1 },
    });
  });

  it('adds and removes tags, and deletes, each after a question that counts the links', async () => {
    const { api, user } = await renderLinks('/links');
    await user.click(screen.getByRole('checkbox', { name: 'Select https://sho.rt/l1' }));

    await user.click(screen.getByRole('button', { name: 'Add tags' }));
    let dialog = screen.getByRole('dialog', { name: 'Add tags' });
    expect(within(dialog).getByRole('button', { name: 'Add tags' })).toBeDisabled();
    await user.type(within(dialog).getByRole('combobox', { name: 'Tags' }), 'promo{Enter}');
    expect(within(dialog).getByText('Add these tags to one link?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Add tags' }));
    await waitFor(() => expect(api.to('PATCH', '/api/v1/links/bulk')).toHaveLength(1));
    expect(bodyOf(api.to('PATCH', '/api/v1/links/bulk')[0])).toEqual({
      ids: [1],
      changes: { tags_add: ['promo'] },
    });

    await user.click(await screen.findByRole('checkbox', { name: 'Select https://sho.rt/l1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select https://sho.rt/l4' }));
    await user.click(screen.getByRole('button', { name: 'Remove tags' }));
    dialog = screen.getByRole('dialog', { name: 'Remove tags' });
    await user.type(within(dialog).getByRole('combobox', { name: 'Tags' }), 'old{Enter}');
    expect(within(dialog).getByText('Remove these tags from 2 links?')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Remove tags' }));
    await waitFor(() => expect(api.to('PATCH', '/api/v1/links/bulk')).toHaveLength(2));
    expect(bodyOf(api.to('PATCH', '/api/v1/links/bulk')[1])).toEqual({
      ids: [1, 4],
      changes: { tags_remove: ['old'] },
    });

    await user.click(await screen.findByRole('checkbox', { name: 'Select https://sho.rt/l1' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select https://sho.rt/l4' }));
    await user.click(screen.getByRole('button', { name: 'Delete' }));
    dialog = screen.getByRole('dialog', { name: 'Delete' });
    expect(within(dialog).getByText(/^Delete 2 links\?/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(api.to('DELETE', '/api/v1/links/bulk')).toHaveLength(1));
    expect(bodyOf(api.to('DELETE', '/api/v1/links/bulk')[0])).toEqual({ ids: [1, 4] });
    expect(await screen.findByText('2 links deleted.', { selector: '.toast' })).toBeInTheDocument();
  });

  it("shows a 422's message in the dialog and keeps the selection", async () => {
    const { user } = await renderLinks('/links', {
      'PATCH /api/v1/links/bulk': () =>
        json(422, { message: { ids: ['The ids field names links that are not yours: 3.'] }, status: 422 }),
    });
    await user.click(screen.getByRole('checkbox', { name: 'Select https://sho.rt/l3' }));
    await user.click(screen.getByRole('button', { name: 'Archive' }));
    const dialog = screen.getByRole('dialog', { name: 'Archive' });
    await user.click(within(dialog).getByRole('button', { name: 'Archive' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'The ids field names links that are not yours: 3.',
    );
    expect(screen.getByText('1 selected', { selector: '[role="status"]' })).toBeInTheDocument();
  });

  it('clears the selection when the filters change', async () => {
    const { user } = await renderLinks('/links');
    await user.click(screen.getByRole('checkbox', { name: 'Select https://sho.rt/l3' }));
    expect(screen.getByRole('region', { name: 'Selected links' })).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Health'), 'Broken links only');
    await waitFor(() =>
      expect(screen.queryByRole('region', { name: 'Selected links' })).not.toBeInTheDocument(),
    );
    expect(screen.getByRole('checkbox', { name: 'Select https://sho.rt/l3' })).not.toBeChecked();
  });
});

describe('keyboard shortcuts on the links list', () => {
  it('moves between rows with j and k, selects with x, and lists the shortcuts with ?', async () => {
    const { user } = await renderLinks('/links');
    await user.keyboard('jj');
    const second = screen.getByRole('checkbox', { name: 'Select https://sho.rt/l2' }).closest('tr')!;
    expect(second).toHaveFocus();
    expect(second).toHaveClass('row-active');
    await user.keyboard('x');
    expect(screen.getByRole('checkbox', { name: 'Select https://sho.rt/l2' })).toBeChecked();
    await user.keyboard('k{ArrowDown}');
    expect(second).toHaveFocus();

    await user.keyboard('?');
    const overlay = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(overlay).getByRole('row', { name: 'x Select it or unselect it' })).toBeInTheDocument();
    // Keys meant for the page do nothing while the overlay is open.
    await user.keyboard('x');
    expect(screen.getByRole('checkbox', { name: 'Select https://sho.rt/l2' })).toBeChecked();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('focuses the search with /, and types there without firing', async () => {
    const { user, location } = await renderLinks('/links');
    await user.keyboard('/');
    const search = screen.getByRole('searchbox', { name: 'Search' });
    expect(search).toHaveFocus();
    await user.keyboard('n');
    expect(search).toHaveValue('n');
    expect(location.history.at(-1)).toBe('/links');
  });

  it('opens a new link with n, and asks before deleting the active row with d', async () => {
    const { user, location } = await renderLinks('/links');
    await user.keyboard('j{Delete}');
    expect(screen.getByRole('dialog', { name: 'Delete this link?' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.keyboard('n');
    expect(location.history.at(-1)).toBe('/links/new');
  });
});

describe('the filters on a phone', () => {
  it('fold behind a Filters button that says how many are active', async () => {
    const { user } = await renderLinks('/links?tag=news&health=broken');
    const button = screen.getByRole('button', { name: 'Filters 2 active' });
    expect(button).toHaveAttribute('aria-expanded', 'false');
    const folded = document.getElementById(button.getAttribute('aria-controls')!)!;
    expect(folded).toHaveAttribute('data-open', 'false');
    expect(within(folded).getByLabelText('Health')).toBeInTheDocument();
    await user.click(button);
    expect(button).toHaveAttribute('aria-expanded', 'true');
    expect(folded).toHaveAttribute('data-open', 'true');
  });
});
