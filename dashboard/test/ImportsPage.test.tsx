import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { ImportJob } from '../src/api/types';
import ImportsPage, { POLL_MS } from '../src/features/imports/ImportsPage';
import { importBody, NO_OPTIONS } from '../src/features/imports/sources';
import { json, listOf, type Routes } from './api';
import { session, userSession } from './fixtures';
import { renderSignedIn } from './render';

const AT = '2026-11-20T10:00:00.000000Z';

function job(overrides: Partial<ImportJob> = {}): ImportJob {
  return {
    id: 3,
    source: 'shlink',
    status: 'running',
    dry_run: 0,
    progress: {
      links_total: 40,
      links_done: 10,
      links_created: 7,
      links_updated: 1,
      links_skipped: 1,
      links_failed: 1,
      clicks_imported: 1234,
    },
    errors: [],
    created_at: AT,
    started_at: AT,
    finished_at: null,
    ...overrides,
  };
}

const FAILED = job({
  id: 2,
  source: 'yourls',
  status: 'failed',
  progress: { ...job().progress, links_total: null, links_done: 0 },
  errors: [{ item: 'source', message: 'the YOURLS database cannot be reached: ECONNREFUSED' }],
  finished_at: AT,
});

async function renderImports(routes: Routes, who = userSession('editor')) {
  const view = await renderSignedIn(<ImportsPage />, { path: '/imports', session: who, routes });
  return { ...view, user: userEvent.setup({ delay: null }) };
}

describe('the imports screen', () => {
  it('shows each import’s status, progress, counts and problems, and cancels a running one', async () => {
    let cancelled = false;
    const { api, user } = await renderImports({
      'GET /api/v1/imports': () =>
        json(200, listOf([job({ status: cancelled ? 'cancelled' : 'running' }), FAILED])),
      'DELETE /api/v1/imports/:id': () => {
        cancelled = true;
        return json(200, { data: job({ status: 'cancelled' }), status: 200 });
      },
    });

    const table = await screen.findByRole('table', { name: 'Import' });
    const running = within(table).getByRole('row', { name: /Shlink #3/ });
    expect(within(running).getByText('Running')).toBeInTheDocument();
    const bar = within(running).getByRole('progressbar', { name: 'Progress of Shlink #3' });
    expect(bar).toHaveAttribute('aria-valuenow', '10');
    expect(bar).toHaveAttribute('aria-valuemax', '40');
    expect(bar).toHaveAttribute('aria-valuetext', '10 of 40 links');
    expect(
      within(running)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['7 created', '1 updated', '1 skipped', '1 failed', '1,234 clicks']);

    const failed = within(table).getByRole('row', { name: /YOURLS #2/ });
    expect(within(failed).getByText('Failed')).toBeInTheDocument();
    // A failed import has read what there was: the bar is full, not going on.
    expect(within(failed).getByRole('progressbar')).toHaveAttribute('aria-valuetext', '0 of 0 links');
    expect(within(failed).queryByRole('button', { name: /Cancel import/ })).not.toBeInTheDocument();
    await user.click(within(failed).getByText('1 problem'));
    expect(within(failed).getByText(/the YOURLS database cannot be reached/)).toBeVisible();

    await user.click(within(running).getByRole('button', { name: 'Cancel import Shlink #3' }));
    const dialog = screen.getByRole('dialog', { name: 'Cancel this import?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel import' }));
    expect(await screen.findByText('Import cancelled: Shlink #3')).toBeInTheDocument();
    expect(api.to('DELETE', '/api/v1/imports/3')).toHaveLength(1);
    expect(await within(table).findByText('Cancelled')).toBeInTheDocument();
  });

  it('reads the list again while an import goes on, and stops once none does', async () => {
    let reads = 0;
    const { api } = await renderImports({
      'GET /api/v1/imports': () => {
        reads += 1;
        return json(200, listOf([job({ status: reads < 3 ? 'running' : 'done', finished_at: AT })]));
      },
    });

    expect(await screen.findByText('Done', {}, { timeout: 3 * POLL_MS + 2000 })).toBeInTheDocument();
    const settled = api.to('GET', '/api/v1/imports').length;
    expect(settled).toBe(3);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS + 300));
    expect(api.to('GET', '/api/v1/imports')).toHaveLength(settled);
  });

  it('asks for the options of the chosen source, credentials hidden, and shows the API’s 422 beside them', async () => {
    const { api, user } = await renderImports({
      'GET /api/v1/imports': listOf([]),
      'POST /api/v1/imports': () =>
        json(422, { message: { database_url: ['The database url field is required.'] }, status: 422 }),
    });

    await user.click((await screen.findAllByRole('button', { name: 'New import' }))[0]!);
    const dialog = screen.getByRole('dialog', { name: 'New import' });
    expect(within(dialog).getByLabelText('Source URL')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('API key')).toHaveAttribute('type', 'password');

    await user.selectOptions(within(dialog).getByLabelText('Source'), 'yourls');
    expect(within(dialog).queryByLabelText('Source URL')).not.toBeInTheDocument();
    const database = within(dialog).getByLabelText('Database URL');
    expect(database).toHaveAttribute('type', 'password');
    expect(database).toHaveAttribute('autocomplete', 'off');
    await user.type(within(dialog).getByLabelText('Table prefix'), 'old_');
    await user.click(within(dialog).getByLabelText(/Dry run/));
    await user.selectOptions(within(dialog).getByLabelText('When an alias is taken'), 'suffix');
    await user.click(within(dialog).getByRole('button', { name: 'Start the import' }));

    expect(await within(dialog).findByText('The database url field is required.')).toBeInTheDocument();
    await waitFor(() => expect(database).toHaveFocus());
    expect(database).toHaveAttribute('aria-invalid', 'true');
    expect(JSON.parse(api.to('POST', '/api/v1/imports')[0]?.body ?? '{}')).toEqual({
      source: 'yourls',
      table_prefix: 'old_',
      dry_run: 1,
      on_conflict: 'suffix',
    });
  });

  it('offers a reader who may not write links neither a new import nor a cancel', async () => {
    await renderImports({ 'GET /api/v1/imports': listOf([job()]) }, session(['links.read']));
    await screen.findByRole('table', { name: 'Import' });
    expect(screen.queryByRole('button', { name: /New import|Cancel import/ })).not.toBeInTheDocument();
  });
});

describe('the body of an import', () => {
  it('holds only the chosen source’s options, a URL completed and empty ones left out', () => {
    const typed = { ...NO_OPTIONS, url: 'bitly.example/api ', access_token: ' token ', api_key: 'unused' };
    expect(importBody('bitly', typed, false, 'skip')).toEqual({
      source: 'bitly',
      access_token: 'token',
      url: 'https://bitly.example/api',
      dry_run: 0,
      on_conflict: 'skip',
    });
    expect(importBody('kutt', NO_OPTIONS, false, 'update')).toEqual({
      source: 'kutt',
      dry_run: 0,
      on_conflict: 'update',
    });
  });
});
