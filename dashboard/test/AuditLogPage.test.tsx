import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { AuditEntry } from '../src/api/types';
import AuditLogPage from '../src/features/audit/AuditLogPage';
import { changeLines } from '../src/features/audit/changes';
import { saveBlob } from '../src/download';
import { listOf } from './api';
import { userSession } from './fixtures';
import { renderSignedIn } from './render';

vi.mock('../src/download', () => ({ saveBlob: vi.fn() }));

const ENTRY: AuditEntry = {
  id: 81,
  action: 'link.updated',
  actor: { type: 'user', id: 7, name: 'Ann Lee' },
  target: { type: 'link', id: 5 },
  changes: { url: ['https://old.example', 'https://new.example'], password: ['[redacted]', '[redacted]'] },
  ip: '203.0.113.7',
  created_at: '2026-11-20T10:00:00.000000Z',
};
const CLI: AuditEntry = {
  ...ENTRY,
  id: 80,
  action: 'member.added',
  actor: { type: 'cli', id: null, name: null },
  target: { type: 'member', id: 8 },
  changes: { role: [null, 'editor'] },
  ip: null,
};

async function renderAudit(path = '/audit', rows = [ENTRY, CLI]) {
  const view = await renderSignedIn(<AuditLogPage />, {
    path,
    session: userSession('admin'),
    routes: {
      'GET /api/v1/audit-log': listOf(rows),
      'GET /api/v1/audit-log/export': () =>
        new Response('id,action\n81,link.updated\n', { headers: { 'content-type': 'text/csv' } }),
    },
  });
  return { ...view, user: userEvent.setup({ delay: null }) };
}

const lastQuery = (api: Awaited<ReturnType<typeof renderAudit>>['api']) =>
  Object.fromEntries(api.to('GET', '/api/v1/audit-log').at(-1)?.url.searchParams ?? []);

describe('the audit log', () => {
  it('lists who changed what, each change as field: old → new', async () => {
    await renderAudit();

    const table = await screen.findByRole('table', { name: 'Audit log' });
    const row = within(table).getByText('link.updated').closest('tr')!;
    expect(within(row).getByText('Ann Lee')).toBeInTheDocument();
    expect(within(row).getByText('A person')).toBeInTheDocument();
    expect(within(row).getByText('Link #5')).toBeInTheDocument();
    expect(within(row).getByText('url: https://old.example → https://new.example')).toBeInTheDocument();
    expect(within(row).getByText('203.0.113.7')).toBeInTheDocument();
    const cli = within(table).getByText('member.added').closest('tr')!;
    expect(within(cli).getByText('The command line')).toBeInTheDocument();
    expect(within(cli).getByText('role: — → editor')).toBeInTheDocument();
    // A log is read, never changed.
    expect(within(table).queryByRole('button')).not.toBeInTheDocument();
  });

  it('sends the filters of the address, and the ones chosen on the page, from the first page', async () => {
    const { api, user, location } = await renderAudit(
      '/audit?actor_type=user&target_type=link&from=2026-11-01&to=2026-11-30&page=2&sort=asc',
    );
    await screen.findByRole('table', { name: 'Audit log' });
    expect(lastQuery(api)).toEqual({
      actor_type: 'user',
      target_type: 'link',
      from: '2026-11-01',
      to: '2026-11-30',
      page: '2',
      sort: 'asc',
      per_page: '25',
    });

    await user.selectOptions(screen.getByLabelText('What'), 'Member');
    await waitFor(() => expect(lastQuery(api).target_type).toBe('member'));
    expect(lastQuery(api).page).toBe('1');

    await user.type(screen.getByLabelText('Action'), 'member.removed');
    await waitFor(() => expect(lastQuery(api).action).toBe('member.removed'));
    await user.type(screen.getByLabelText('Id'), '8');
    await waitFor(() => expect(lastQuery(api).target_id).toBe('8'));
    expect(location.history.at(-1)).toContain('action=member.removed');
  });

  it('leaves out what the API would refuse: an unknown type, a day that is not one', async () => {
    const { api } = await renderAudit('/audit?actor_type=robot&from=yesterday&target_id=-3');
    await screen.findByRole('table', { name: 'Audit log' });
    expect(lastQuery(api)).toEqual({ sort: 'desc', per_page: '25', page: '1' });
  });

  it('exports the entries the filters select as CSV', async () => {
    const { api, user } = await renderAudit('/audit?action=link.updated&page=3');

    await user.click(await screen.findByRole('button', { name: 'Export CSV' }));

    await waitFor(() => expect(saveBlob).toHaveBeenCalledWith(expect.anything(), 'audit-log.csv'));
    const exported = api.to('GET', '/api/v1/audit-log/export')[0]?.url.searchParams;
    expect(Object.fromEntries(exported ?? [])).toEqual({ action: 'link.updated', sort: 'desc' });
  });

  it('says when nothing matches the filters, and clears them', async () => {
    const { user, location } = await renderAudit('/audit?actor_type=system', []);

    expect(await screen.findByText('Nothing matches.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show all' }));
    await waitFor(() => expect(location.history.at(-1)).toBe('/audit'));
  });

  it('writes values of any kind on one line', () => {
    expect(
      changeLines({ ...ENTRY, changes: { scopes: [['links.read'], ['links.read', 'links.write']] } }),
    ).toEqual(['scopes: ["links.read"] → ["links.read","links.write"]']);
  });
});
